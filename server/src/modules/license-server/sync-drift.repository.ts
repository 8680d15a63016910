import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { PreparedSql } from '../../database/prepared-sql';
import { type Drift } from './license-server-sync.constants';
import { SyncDriftEntity } from './sync-drift.entity';

export type DriftKind = SyncDriftEntity['kind'];
/** One drift row to write: reconcile id, kind, key, drift. */
export type DriftRow = [number, DriftKind, string, Drift];

/** The sync_drift table: the records a reconcile found out of step. */
@Injectable()
export class SyncDriftRepository {
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(SyncDriftEntity) private readonly drift: Repository<SyncDriftEntity>) {
    this.sql = PreparedSql.for(drift.manager.connection);
  }

  async insertMany(rows: DriftRow[]): Promise<void> {
    await this.sql.insertMany('sync_drift', ['reconcile_id', 'kind', 'item_key', 'drift'], rows);
  }

  count(reconcileId: number, drift: Drift): Promise<number> {
    return this.drift.countBy({ reconcile_id: reconcileId, drift });
  }

  async deleteAllBut(reconcileId: number): Promise<void> {
    await this.drift.delete({ reconcile_id: Not(reconcileId) });
  }

  async deleteOf(reconcileId: number): Promise<void> {
    await this.drift.delete({ reconcile_id: reconcileId });
  }

  /** One page of a reconcile's drift in the order it was found, and how many rows it has. */
  page(reconcileId: number, page: number, limit: number): Promise<[SyncDriftEntity[], number]> {
    return this.drift.findAndCount({ where: { reconcile_id: reconcileId }, order: { id: 'ASC' }, skip: (page - 1) * limit, take: limit });
  }

  /** A reconcile's rows of one kind with these drifts, after `afterId` in id order, at most `limit`. */
  after(reconcileId: number, kind: DriftKind, drifts: Drift[], afterId: number, limit: number): Promise<SyncDriftEntity[]> {
    return this.drift
      .createQueryBuilder('d')
      .where({ reconcile_id: reconcileId, kind, drift: In(drifts) })
      .andWhere('d.id > :afterId', { afterId })
      .orderBy('d.id', 'ASC')
      .take(limit)
      .getMany();
  }
}
