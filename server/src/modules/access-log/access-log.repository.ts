import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { LogFilters, LogLevel } from '../../common/log-listing';
import { commonFilters, Condition, LogTableRepository, startsWith } from '../../database/log-table';
import { AccessLogEntity } from './access-log.entity';

/** A row to store: the table gives it its id. */
export type NewAccessLogRow = Omit<AccessLogEntity, 'id'>;

const COLUMNS: Array<keyof NewAccessLogRow> = [
  'method',
  'route',
  'path',
  'status',
  'duration_ms',
  'bytes_out',
  'user_id',
  'user_email',
  'ip_address',
  'user_agent',
  'created_at',
];

/** A request's level, by its status. */
const LEVEL_BY_STATUS: Record<LogLevel, Condition> = {
  error: { sql: 'status >= 500', params: [] },
  warning: { sql: 'status >= 400 AND status < 500', params: [] },
  info: { sql: 'status < 400', params: [] },
  debug: { sql: '1 = 0', params: [] },
};

/** The access log's table (access_logs): one row per API request, stored in batches. */
@Injectable()
export class AccessLogRepository extends LogTableRepository<AccessLogEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, 'access_logs');
  }

  insert(rows: NewAccessLogRow[]): Promise<void> {
    return this.insertRows(COLUMNS, rows);
  }

  protected filters(filters: LogFilters): Condition[] {
    return [...commonFilters(filters, 'user_email'), ...(filters.level ? [LEVEL_BY_STATUS[filters.level]] : [])];
  }

  /** The path, route, address or e-mail starts with the term; a three-digit term is also a status. */
  protected searchMatches(term: string): Condition[] {
    const matches = [
      startsWith('path', term),
      startsWith('route', term),
      startsWith('ip_address', term),
      startsWith('user_email', term.toLowerCase()),
    ];
    if (/^\d{3}$/.test(term)) matches.push({ sql: 'status = ?', params: [Number(term)] });
    return matches;
  }

  protected read(row: AccessLogEntity): AccessLogEntity {
    return {
      id: Number(row.id),
      method: row.method,
      route: row.route,
      path: row.path,
      status: Number(row.status),
      duration_ms: Number(row.duration_ms),
      bytes_out: Number(row.bytes_out),
      user_id: row.user_id === null ? null : Number(row.user_id),
      user_email: row.user_email,
      ip_address: row.ip_address,
      user_agent: row.user_agent,
      created_at: this.sql.readDate(row.created_at)!,
    };
  }
}
