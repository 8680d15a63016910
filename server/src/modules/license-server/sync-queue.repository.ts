import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThanOrEqual, Not, Repository } from 'typeorm';
import { type SyncQueueKind } from './license-server-sync.constants';
import { SyncQueueItemEntity } from './sync-queue-item.entity';

export type NewQueueItem = Omit<SyncQueueItemEntity, 'id'>;

/** The sync_queue table: failed pushes waiting for their retry. */
@Injectable()
export class SyncQueueRepository {
  constructor(@InjectRepository(SyncQueueItemEntity) private readonly queue: Repository<SyncQueueItemEntity>) {}

  findByKeys(kind: SyncQueueKind, keys: string[]): Promise<SyncQueueItemEntity[]> {
    return this.queue.findBy({ kind, item_key: In(keys) });
  }

  /** Adds entries; one whose kind and key are queued already (another instance, meanwhile) is left as it is. */
  async insertNew(items: NewQueueItem[]): Promise<void> {
    await this.queue.createQueryBuilder().insert().values(items).orIgnore().execute();
  }

  async updateMany(
    ids: number[],
    changes: Pick<SyncQueueItemEntity, 'attempts' | 'last_error' | 'last_attempt_at' | 'next_attempt_at'>,
  ): Promise<void> {
    await this.queue.update({ id: In(ids) }, changes);
  }

  async deleteKeys(kind: SyncQueueKind, keys: string[]): Promise<void> {
    await this.queue.delete({ kind, item_key: In(keys) });
  }

  /** Entries due at `now` (every entry when null), fewest attempts first, at most `limit`. */
  due(kind: SyncQueueKind, limit: number, now: Date | null): Promise<SyncQueueItemEntity[]> {
    return this.queue.find({
      where: { kind, ...(now ? { next_attempt_at: LessThanOrEqual(now) } : {}) },
      order: { attempts: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  count(): Promise<number> {
    return this.queue.count();
  }

  /** The entries that failed most often first. */
  worst(limit: number): Promise<SyncQueueItemEntity[]> {
    return this.queue.find({ order: { attempts: 'DESC', id: 'ASC' }, take: limit });
  }

  /** Deletes every entry, or (`keepRevocations`) every one but the revocations. */
  async deleteAll(keepRevocations: boolean): Promise<void> {
    if (keepRevocations) await this.queue.delete({ kind: Not('revocation') });
    else await this.queue.createQueryBuilder().delete().execute();
  }
}
