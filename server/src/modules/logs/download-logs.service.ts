import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { IntervalBatch } from '../../database/interval-batch';
import { PreparedSql } from '../../database/prepared-sql';
import { DailyStatsService, dayOf } from './daily-stats.service';
import { DownloadLogEntity } from './download-log.entity';
import type { RawRow } from './log-export';
import { commonFilters, LogFilters, LogListing, LogPage, LogSource, startsWith } from './log-listing';
import { MAX_LENGTH } from '../../database/column-lengths';

export type { DownloadLogEntity } from './download-log.entity';

export type DownloadLogEntry = Omit<DownloadLogEntity, 'id'>;

/**
 * Rows that start a write at once: at thousands of small downloads a second, a second's rows in one SQLite
 * transaction held the event loop for 50 ms and more (every answer waited); 500 rows take a few.
 */
const MAX_HELD_ROWS = 500;

const COLUMNS: Array<keyof DownloadLogEntry> = [
  'user_id',
  'user_email',
  'file_id',
  'file_name',
  'version',
  'os_type',
  'architecture',
  'file_size',
  'ip_address',
  'user_agent',
  'via',
  'created_at',
];

export interface DownloadLogQuery extends LogFilters {
  user_id?: number;
}

/**
 * The download logs: one row per download, held in memory and written once a second in one batch (a download
 * never waits for its row), read per user or for the admin (a read here stores what is held first).
 */
@Injectable()
export class DownloadLogsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('DownloadLogs');
  private readonly sql: PreparedSql;
  private readonly listing: LogListing;
  // Each batch also adds to the per-day download figures, so charts never count log rows; rows and figures are
  // stored in one transaction, so a batch kept for another try is never counted twice.
  private readonly writer = new IntervalBatch<DownloadLogEntry>(
    (entries) =>
      this.sql.atomically([
        ...this.sql.insertStatements(
          'download_logs',
          COLUMNS,
          entries.map((entry) => COLUMNS.map((column) => entry[column])),
        ),
        ...this.dailyStats.additions(countPerDay(entries)),
      ]),
    1000,
    (error) => this.logger.error(`Download log rows not stored yet (kept for the next try): ${(error as Error).message}`),
    MAX_HELD_ROWS,
  );

  constructor(
    dataSource: DataSource,
    @InjectRepository(DownloadLogEntity) private readonly logs: Repository<DownloadLogEntity>,
    private readonly dailyStats: DailyStatsService,
  ) {
    this.sql = PreparedSql.for(dataSource);
    this.listing = new LogListing(this.sql);
  }

  private sourceFor(userId?: number): LogSource {
    return {
      table: 'download_logs',
      filters: (filters) => [
        ...commonFilters(filters, 'user_email'),
        ...(userId === undefined ? [] : [{ sql: 'user_id = ?', params: [userId] }]),
      ],
      searchMatches: (term) => [
        startsWith('file_name', term),
        startsWith('version', term),
        startsWith('user_email', term.toLowerCase()),
        startsWith('ip_address', term),
      ],
    };
  }

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
    const page = await this.listing.page<DownloadLogEntity>(this.sourceFor(query.user_id), query);
    return { ...page, rows: page.rows.map((row) => this.read(row)) };
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts); what is held is stored first. */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.listing.batches(this.sourceFor(), filters);
  }

  prune(before: Date): Promise<number> {
    return this.listing.prune('download_logs', before);
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Deletes every download log (the download counts and per-day figures stay). */
  async clear(): Promise<void> {
    await this.writer.flush();
    await this.sql.run(this.sql.engine === 'mysql' ? 'TRUNCATE TABLE download_logs' : 'DELETE FROM download_logs', []);
    this.listing.forget();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.flush().catch(() => undefined);
  }

  private read(row: DownloadLogEntity): DownloadLogEntity {
    const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return {
      ...row,
      id: Number(row.id),
      user_id: number(row.user_id),
      file_id: number(row.file_id),
      file_size: number(row.file_size),
      created_at: this.sql.readDate(row.created_at)!,
    };
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
