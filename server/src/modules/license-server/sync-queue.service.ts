import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { type SyncQueueKind } from './license-server-sync.constants';
import { SyncQueueItemEntity } from './sync-queue-item.entity';
import { SyncQueueRepository } from './sync-queue.repository';

/**
 * The retry queue: pushes to the license server that failed, stored in the database so they survive a restart, and
 * tried again with a backoff that doubles with each failure (LICENSE_SERVER_RETRY_SECONDS, up to
 * LICENSE_SERVER_RETRY_MAX_SECONDS). An entry names what to push; what is pushed is its state at delivery.
 */
@Injectable()
export class SyncQueueService {
  constructor(
    private readonly queue: SyncQueueRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Records a failed attempt for each key: a new entry, or one more attempt of a queued one, with its next try. */
  async failed(kind: SyncQueueKind, keys: string[], error: string): Promise<void> {
    if (!keys.length) return;
    const now = new Date();
    const known = await this.queue.findByKeys(kind, keys);
    const knownKeys = new Set(known.map((item) => item.item_key));
    const fresh = [...new Set(keys)].filter((key) => !knownKeys.has(key));
    const reason = error.slice(0, 500);
    if (fresh.length) {
      await this.queue.insertNew(
        fresh.map((item_key) => ({
          kind,
          item_key,
          attempts: 1,
          last_error: reason,
          next_attempt_at: this.retryAt(1, now),
          created_at: now,
          last_attempt_at: now,
        })),
      );
    }
    // One statement per number of attempts so far (a batch usually shares one).
    const byAttempts = new Map<number, number[]>();
    for (const item of known) byAttempts.set(item.attempts, [...(byAttempts.get(item.attempts) ?? []), item.id]);
    for (const [attempts, ids] of byAttempts) {
      await this.queue.updateMany(ids, {
        attempts: attempts + 1,
        last_error: reason,
        last_attempt_at: now,
        next_attempt_at: this.retryAt(attempts + 1, now),
      });
    }
  }

  /** The keys were delivered (or need no delivery any more): their entries go. */
  async settled(kind: SyncQueueKind, keys: string[]): Promise<void> {
    if (keys.length) await this.queue.deleteKeys(kind, keys);
  }

  /** Entries whose next try is due (every entry with `all`), fewest attempts first, at most `limit`. */
  due(kind: SyncQueueKind, limit: number, all = false): Promise<SyncQueueItemEntity[]> {
    return this.queue.due(kind, limit, all ? null : new Date());
  }

  count(): Promise<number> {
    return this.queue.count();
  }

  /** The entries that failed most often first: what System Health shows with their reasons. */
  worst(limit: number): Promise<SyncQueueItemEntity[]> {
    return this.queue.worst(limit);
  }

  /**
   * The license server changed: pushes queued for the old one are dropped, since a full sync pushes every license
   * and version to the new one; revocations stay while there is a license server to send them to.
   */
  async forgetForNewServer(hasServer: boolean): Promise<void> {
    await this.queue.deleteAll(hasServer);
  }

  private retryAt(attempts: number, now: Date): Date {
    return retryAt(this.config, attempts, now);
  }
}

/** When to try again after `attempts` failures: the first retry after retrySeconds, then twice as long each time, up to retryMaxSeconds. */
export function retryAt(config: AppConfig, attempts: number, now = new Date()): Date {
  const { retrySeconds, retryMaxSeconds } = config.licensing.sync;
  const seconds = Math.min(retryMaxSeconds, retrySeconds * 2 ** Math.min(attempts - 1, 30));
  return new Date(now.getTime() + seconds * 1000);
}
