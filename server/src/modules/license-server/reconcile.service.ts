import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Not, Repository } from 'typeorm';
import { PreparedSql } from '../../database/prepared-sql';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { VersionSyncService } from '../versions/version-sync.service';
import { SYNC_BATCH_MAX, SyncChecksumPageDto } from './dto/sync.dto';
import { type Drift } from './license-server-sync.constants';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { SyncDriftEntity } from './sync-drift.entity';
import { SyncReconcileEntity } from './sync-reconcile.entity';

type Checksum = { id: number; key: string; checksum: string };
type DriftKind = SyncDriftEntity['kind'];

/** Drift rows written per INSERT. */
const DRIFT_FLUSH = 1000;

/**
 * Compares this portal with its license server: every synced version and every license, by key, with a checksum
 * of the fields they exchange. The license server's side is paged in (key → checksum, about 100 bytes a record),
 * this side is paged through and matched against it; what does not match is stored as drift: missing there,
 * missing here, or different. Only the newest reconcile keeps its drift.
 */
@Injectable()
export class ReconcileService {
  private readonly sql: PreparedSql;

  constructor(
    @InjectRepository(SyncReconcileEntity) private readonly reconciles: Repository<SyncReconcileEntity>,
    @InjectRepository(SyncDriftEntity) private readonly drift: Repository<SyncDriftEntity>,
    private readonly licenses: LicenseSyncService,
    private readonly versions: VersionSyncService,
    dataSource: DataSource,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  async run(client: LicenseServerClient): Promise<SyncReconcileEntity> {
    const reconcile = await this.reconciles.save(
      this.reconciles.create({ target_url: client.url, status: 'running', error: null, started_at: new Date(), finished_at: null }),
    );
    try {
      const found: Array<[number, DriftKind, string, Drift]> = [];
      const flush = async (all = false) => {
        if (found.length && (all || found.length >= DRIFT_FLUSH)) {
          await this.sql.insertMany('sync_drift', ['reconcile_id', 'kind', 'item_key', 'drift'], found.splice(0));
        }
      };
      const compare = async (kind: DriftKind, remote: string, local: (afterId: number) => Promise<Checksum[]>) => {
        const there = new Map<string, string>();
        for await (const page of client.pages(`/checksums?kind=${remote}`, SyncChecksumPageDto)) {
          for (const item of page) there.set(item.key, item.checksum);
        }
        const counts = { here: 0, there: there.size };
        for (let afterId = 0; ;) {
          const page = await local(afterId);
          for (const item of page) {
            counts.here++;
            const theirs = there.get(item.key);
            if (theirs !== item.checksum) found.push([reconcile.id, kind, item.key, theirs === undefined ? 'missing_there' : 'different']);
            there.delete(item.key);
          }
          await flush();
          if (page.length < SYNC_BATCH_MAX) break;
          afterId = page[page.length - 1].id;
        }
        for (const key of there.keys()) found.push([reconcile.id, kind, key, 'missing_here']);
        await flush(true);
        return counts;
      };
      const versions = await compare('version', 'versions', (after) => this.versions.checksumsAfter(after, SYNC_BATCH_MAX, true));
      const licenses = await compare('license', 'licenses', (after) => this.licenses.checksumsAfter(after, SYNC_BATCH_MAX));
      const tally = async (drift: Drift) => this.drift.countBy({ reconcile_id: reconcile.id, drift });
      Object.assign(reconcile, {
        status: 'completed',
        licenses_here: licenses.here,
        licenses_there: licenses.there,
        versions_here: versions.here,
        versions_there: versions.there,
        missing_there: await tally('missing_there'),
        missing_here: await tally('missing_here'),
        different: await tally('different'),
        finished_at: new Date(),
      });
      await this.reconciles.save(reconcile);
      await this.drift.delete({ reconcile_id: Not(reconcile.id) });
      return reconcile;
    } catch (error) {
      await this.drift.delete({ reconcile_id: reconcile.id });
      const message = error instanceof LicenseServerError ? error.message : `Reconcile failed: ${(error as Error).message}`;
      await this.reconciles.update({ id: reconcile.id }, { status: 'failed', error: message.slice(0, 500), finished_at: new Date() });
      throw error;
    }
  }

  /** The newest reconcile, or null. */
  latest(): Promise<SyncReconcileEntity | null> {
    return this.reconciles.findOne({ where: {}, order: { id: 'DESC' } });
  }

  /** One page of the newest reconcile's drift, in the order it was found. */
  async report(page: number, limit: number): Promise<{ reconcile: SyncReconcileEntity | null; drift: SyncDriftEntity[]; total: number }> {
    const reconcile = await this.latest();
    if (!reconcile) return { reconcile: null, drift: [], total: 0 };
    const [drift, total] = await this.drift.findAndCount({
      where: { reconcile_id: reconcile.id },
      order: { id: 'ASC' },
      skip: (page - 1) * limit,
      take: limit,
    });
    return { reconcile, drift, total };
  }

  /** The keys of one kind that a reconcile found with these drifts, SYNC_BATCH_MAX at a time. */
  async *keys(reconcileId: number, kind: DriftKind, drifts: Drift[]): AsyncGenerator<string[]> {
    for (let afterId = 0; ;) {
      const rows = await this.drift
        .createQueryBuilder('d')
        .where({ reconcile_id: reconcileId, kind, drift: In(drifts) })
        .andWhere('d.id > :afterId', { afterId })
        .orderBy('d.id', 'ASC')
        .take(SYNC_BATCH_MAX)
        .getMany();
      if (!rows.length) return;
      yield rows.map((row) => row.item_key);
      afterId = rows[rows.length - 1].id;
    }
  }
}
