import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JOB_FAILED, type JobFailedEvent, OnNotification } from '../../common/events';
import { GroupCommit } from '../../database/group-commit';
import { PreparedSql } from '../../database/prepared-sql';
import { AuditLogEntity, LogLevel } from './audit-log.entity';
import type { RawRow } from './log-export';
import { commonFilters, Condition, contains, LogFilters, LogListing, LogPage, LogSource, startsWith } from './log-listing';
import { MAX_LENGTH } from '../../database/column-lengths';

export interface AuditEntry {
  level: LogLevel;
  action: string;
  message: string;
  actor?: { id: number | null; email: string | null } | null;
  target?: { type: string; id: string | number | null } | null;
  ip?: string | null;
  userAgent?: string | null;
  context?: Record<string, unknown> | null;
}

type Row = Omit<AuditLogEntity, 'id'>;
const COLUMNS: Array<keyof Row> = [
  'level',
  'action',
  'message',
  'actor_id',
  'actor_email',
  'target_type',
  'target_id',
  'ip_address',
  'user_agent',
  'context',
  'created_at',
];

/**
 * The audit trail. Entries are written off the request's path, in batches (group commit); a failed write is
 * logged, never thrown at the request that caused it. Everything queued is written before shutdown.
 */
@Injectable()
export class AuditLogService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('AuditLog');
  private readonly sql: PreparedSql;
  private readonly listing: LogListing;
  private readonly writer = new GroupCommit<Row>((rows) =>
    this.sql.insertMany(
      'audit_logs',
      COLUMNS,
      rows.map((row) => COLUMNS.map((column) => row[column])),
    ),
  );
  readonly source: LogSource;

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
    this.listing = new LogListing(this.sql);
    this.source = {
      table: 'audit_logs',
      filters: (filters) => [
        ...commonFilters(filters, 'actor_email'),
        ...(filters.level ? [{ sql: 'level = ?', params: [filters.level] }] : []),
      ],
      searchMatches: (term) => [
        startsWith('actor_email', term.toLowerCase()),
        startsWith('ip_address', term),
        startsWith('action', term.toLowerCase()),
        this.messageMatch(term),
      ],
    };
  }

  /** Queues the entry; resolves when it is stored (callers need not wait). */
  /** A failed scheduled job, reported by the jobs module. */
  @OnNotification(JOB_FAILED)
  recordJobFailure({ job, error }: JobFailedEvent): void {
    void this.record({
      level: 'error',
      action: 'job.failed',
      message: `Scheduled job ${job} failed: ${error}`,
      target: { type: 'job', id: job },
    });
  }

  record(entry: AuditEntry): Promise<void> {
    const written = this.writer.add({
      level: entry.level,
      action: entry.action.slice(0, 64),
      message: entry.message.slice(0, MAX_LENGTH.auditMessage),
      actor_id: entry.actor?.id ?? null,
      actor_email: entry.actor?.email?.slice(0, MAX_LENGTH.email) ?? null,
      target_type: entry.target?.type.slice(0, 32) ?? null,
      target_id: entry.target?.id === null || entry.target?.id === undefined ? null : String(entry.target.id).slice(0, 64),
      ip_address: entry.ip?.slice(0, MAX_LENGTH.ip) ?? null,
      user_agent: entry.userAgent?.slice(0, MAX_LENGTH.userAgent) ?? null,
      context: entry.context ? JSON.stringify(entry.context).slice(0, 4000) : null,
      created_at: new Date(),
    });
    written.catch((error: Error) => this.logger.error(`Audit entry ${entry.action} not stored: ${error.message}`));
    return written;
  }

  async list(filters: LogFilters): Promise<LogPage<AuditLogEntity>> {
    const page = await this.listing.page<AuditLogEntity>(this.source, filters);
    return { ...page, rows: page.rows.map((row) => this.read(row)) };
  }

  /** The newest entries, for the dashboard's Recent Activity. */
  async recent(limit: number): Promise<AuditLogEntity[]> {
    return (await this.list({ limit, page: 1 })).rows;
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts). */
  batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    return this.listing.batches(this.source, filters);
  }

  prune(before: Date): Promise<number> {
    return this.listing.prune('audit_logs', before);
  }

  /** Waits until everything queued so far is stored. */
  flush(): Promise<void> {
    return this.writer.drain();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.drain();
  }

  async onApplicationShutdown(): Promise<void> {
    // Requests that finished while the server closed may have queued more.
    await this.writer.drain().catch(() => undefined);
  }

  /** Words in messages: MariaDB's FULLTEXT index (word prefixes), SQLite's FTS5 trigram table (any 3+ letters). */
  private messageMatch(term: string): Condition {
    if (this.sql.engine === 'mysql') {
      const words = term.match(/[\p{L}\p{N}_]+/gu) ?? [];
      // InnoDB indexes words of 3+ characters: shorter ones are looked for the slow way.
      if (!words.length || words.some((word) => [...word].length < 3)) return contains('message', term);
      return { sql: 'MATCH(message) AGAINST (? IN BOOLEAN MODE)', params: [words.map((word) => `+${word}*`).join(' ')] };
    }
    if ([...term].length < 3) return contains('message', term);
    return { sql: 'id IN (SELECT rowid FROM audit_logs_fts WHERE audit_logs_fts MATCH ?)', params: [`"${term.replace(/"/g, '""')}"`] };
  }

  private read(row: AuditLogEntity): AuditLogEntity {
    return {
      ...row,
      id: Number(row.id),
      actor_id: row.actor_id === null ? null : Number(row.actor_id),
      created_at: this.sql.readDate(row.created_at)!,
    };
  }
}
