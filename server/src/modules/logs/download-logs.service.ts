import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Cache } from '../../common/cache';
import { MAX_LENGTH } from '../../database/column-lengths';
import { IntervalBatch } from '../../database/interval-batch';
import { CAPPED_COUNT_TTL_MS, CAPPED_COUNTS_MAX } from '../access-log/access-log.constants';
import { countPastCap } from '../access-log/access-log.service';
import { writtenBehind } from './batched-rows';
import { dayOf } from './daily-stats.service';
import { DownloadLogEntity } from './download-log.entity';
import { DownloadLogEntry, DownloadLogQuery, DownloadLogsRepository } from './download-logs.repository';
import type { RawRow } from './log-export';
import { LogFilters, LogPage, pruneInBatches } from './log-listing';

export type { DownloadLogEntity } from './download-log.entity';
export type { DownloadLogEntry, DownloadLogQuery } from './download-logs.repository';

/**
 * The download logs: one row per download, held in memory and written once a second in one batch (a download
 * never waits for its row), read per user or for the admin (a read here stores what is held first).
 */
@Injectable()
export class DownloadLogsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('DownloadLogs');
  // Each batch also adds to the per-day download figures, so charts never count log rows; rows and figures are
  // stored in one transaction, so a batch kept for another try is never counted twice. A write starts once 500
  // rows are held: at thousands of small downloads a second, a second's rows in one SQLite transaction would hold
  // the event loop long enough for every response to wait.
  private readonly writer: IntervalBatch<DownloadLogEntry> = writtenBehind<DownloadLogEntry>(
    (entries) => this.repository.insert(entries, countPerDay(entries)),
    'download_logs',
    this.logger,
  );
  /** Counts past COUNT_CAP (see countPastCap), cleared when this service removes rows. */
  private readonly counts = new Cache<number>({ max: CAPPED_COUNTS_MAX, ttlMs: CAPPED_COUNT_TTL_MS });

  constructor(private readonly repository: DownloadLogsRepository) {}

  /** Queues the row: stored within a second, or by `flush`, or at shutdown. */
  record(entry: DownloadLogEntry): void {
    this.writer.add({
      ...entry,
      user_email: entry.user_email?.slice(0, MAX_LENGTH.email) ?? null,
      file_name: entry.file_name.slice(0, MAX_LENGTH.fileName),
      version: entry.version?.slice(0, MAX_LENGTH.version) ?? null,
      ip_address: entry.ip_address?.slice(0, MAX_LENGTH.ip) ?? null,
      user_agent: entry.user_agent?.slice(0, MAX_LENGTH.userAgent) ?? null,
    });
  }

  /** Newest first (or oldest); search by the beginning of the file name, version, user e-mail or IP address. */
  async list(query: DownloadLogQuery): Promise<LogPage<DownloadLogEntity>> {
    await this.writer.flush();
    return this.repository.page(query, (key, count) => countPastCap(this.counts, key, count));
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts); what is held is stored first. */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.repository.batches(filters);
  }

  /** Deletes rows older than `before` in batches; returns how many went. */
  prune(before: Date): Promise<number> {
    return pruneInBatches((batch) => this.repository.deleteOlder(before, batch), this.counts);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Deletes every download log (the download counts and per-day figures stay). */
  async clear(): Promise<void> {
    await this.writer.flush();
    await this.repository.clear();
    this.counts.clear();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.flush().catch(() => undefined);
  }
}

/** Downloads per UTC day by OS, by `os|architecture` and by version (keys `metric\tday\tdimension`). */
function countPerDay(entries: DownloadLogEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const entry of entries) {
    const day = dayOf(entry.created_at);
    const os = entry.os_type ?? '';
    count(`downloads_os\t${day}\t${os}`);
    count(`downloads_platform\t${day}\t${os}|${entry.architecture ?? ''}`);
    count(`downloads_version\t${day}\t${entry.version ?? ''}`);
  }
  return counts;
}
