import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Cache } from '../../common/cache';
import { MAX_LENGTH } from '../../database/column-lengths';
import { IntervalBatch } from '../../database/interval-batch';
import { CAPPED_COUNT_TTL_MS, CAPPED_COUNTS_MAX } from '../access-log/access-log.constants';
import { countPastCap } from '../access-log/access-log.service';
import { writtenBehind } from './batched-rows';
import type { RawRow } from './log-export';
import { LogFilters, LogPage, pruneInBatches } from './log-listing';
import { RemoteLogEntity } from './remote-log.entity';
import { RemoteLogEntry, RemoteLogsRepository, SyncedRemoteLog } from './remote-logs.repository';

export type { RemoteLogEntry, SyncedRemoteLog } from './remote-logs.repository';

/** Records every call of the activation API, written in batches. */
@Injectable()
export class RemoteLogsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('RemoteLogs');
  // Nobody waits for an entry, as for access and download rows: held and written hundreds at a time, where
  // awaiting a write per request would cost every heartbeat a share of its CPU. A read of the log stores what is
  // held first, and so does shutdown.
  private readonly writer: IntervalBatch<RemoteLogEntry>;
  /** Counts past COUNT_CAP (see countPastCap), cleared when this service removes rows. */
  private readonly counts = new Cache<number>({ max: CAPPED_COUNTS_MAX, ttlMs: CAPPED_COUNT_TTL_MS });

  constructor(private readonly repository: RemoteLogsRepository) {
    this.writer = writtenBehind<RemoteLogEntry>((rows) => this.repository.insert(rows), 'remote_logs', this.logger);
  }

  /** Queues the entry: stored within a second, or by `flush`, or at shutdown. */
  record(entry: RemoteLogEntry): void {
    this.writer.add({
      ...entry,
      message: entry.message.slice(0, MAX_LENGTH.remoteLogMessage),
      license_key: entry.license_key.slice(0, MAX_LENGTH.licenseKey),
      server_uid: entry.server_uid.slice(0, MAX_LENGTH.serverUid),
      hostname: entry.hostname?.slice(0, MAX_LENGTH.hostname) ?? null,
      product: entry.product?.slice(0, MAX_LENGTH.productName) ?? null,
      version: entry.version?.slice(0, MAX_LENGTH.version) ?? null,
      ip_address: entry.ip_address?.slice(0, MAX_LENGTH.ip) ?? null,
    });
  }

  /** This portal's own entries after `afterId`, oldest first (for a portal that syncs from this one). */
  async listOwnSince(afterId: number, limit: number): Promise<SyncedRemoteLog[]> {
    await this.writer.flush();
    return this.repository.listOwnSince(afterId, limit);
  }

  /** Stores entries pulled from a license server; an entry already pulled (same server and id) is skipped. */
  importFrom(origin: string, entries: SyncedRemoteLog[]): Promise<void> {
    return this.repository.importFrom(origin, entries);
  }

  async list(filters: LogFilters): Promise<LogPage<RemoteLogEntity>> {
    await this.writer.flush();
    return this.repository.page(filters, (key, count) => countPastCap(this.counts, key, count));
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts). */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.repository.batches(filters);
  }

  /** Deletes entries older than `before` in batches; returns how many went. */
  async prune(before: Date): Promise<number> {
    await this.writer.flush();
    return pruneInBatches((batch) => this.repository.deleteOlder(before, batch), this.counts);
  }

  /** Deletes every remote log entry (what was pulled from a license server too). */
  async clear(): Promise<void> {
    await this.writer.flush();
    await this.repository.clear();
    this.counts.clear();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.flush().catch(() => undefined);
  }
}
