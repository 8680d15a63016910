import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DailyStatsRepository } from './daily-stats.repository';
import { DownloadLogEntity } from './download-log.entity';
import type { LogFilters } from '../../common/log-listing';
import { commonFilters, Condition, LogTableRepository, startsWith } from '../../database/log-table';

export type DownloadLogEntry = Omit<DownloadLogEntity, 'id'>;

export interface DownloadLogQuery extends LogFilters {
  /** One user's downloads only. */
  user_id?: number;
}

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

/** The download logs' table (download_logs): one row per download, read per user or for the admin. */
@Injectable()
export class DownloadLogsRepository extends LogTableRepository<DownloadLogEntity, DownloadLogQuery> {
  constructor(
    dataSource: DataSource,
    private readonly dailyStats: DailyStatsRepository,
  ) {
    super(dataSource, 'download_logs');
  }

  /**
   * Stores the rows and adds `dailyCounts` to the per-day figures (see DailyStatsRepository.add), in one
   * transaction: a batch held for another try is never counted twice.
   */
  insert(entries: DownloadLogEntry[], dailyCounts: Map<string, number>): Promise<void> {
    return this.sql.atomically([
      ...this.sql.insertStatements(
        'download_logs',
        COLUMNS,
        entries.map((entry) => COLUMNS.map((column) => entry[column])),
      ),
      ...this.dailyStats.additions(dailyCounts),
    ]);
  }

  protected filters(filters: DownloadLogQuery): Condition[] {
    return [
      ...commonFilters(filters, 'user_email'),
      ...(filters.user_id === undefined ? [] : [{ sql: 'user_id = ?', params: [filters.user_id] }]),
    ];
  }

  protected searchMatches(term: string): Condition[] {
    return [
      startsWith('file_name', term),
      startsWith('version', term),
      startsWith('user_email', term.toLowerCase()),
      startsWith('ip_address', term),
    ];
  }

  protected read(row: DownloadLogEntity): DownloadLogEntity {
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
