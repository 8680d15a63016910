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
/** InnoDB's default full-text stopwords: a word among them is never found on the index. */
const STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' ',
  ),
);
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
      searchMatches: (term) => [...this.columnMatches(term), ...this.messageMatch(term)],
      // On rows already read, the message is simply tested for the term (what the full-text index finds, and more).
      scanMatches: (term) => [...this.columnMatches(term), ...(this.messageMatch(term).length ? [contains('message', term)] : [])],
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

  /** The beginning of the actor's e-mail, the address or the action. */
  private columnMatches(term: string): Condition[] {
    return [startsWith('actor_email', term.toLowerCase()), startsWith('ip_address', term), startsWith('action', term.toLowerCase())];
  }

  /**
   * Messages holding the term, found on the full-text index: SQLite's FTS5 trigram table (any 3+ characters), or
   * MariaDB's FULLTEXT index on the term's longest indexed word (3+ letters, not a stopword: one word's few rows
   * rather than every row of a common one), the term itself then tested on those rows. A term with nothing the
   * index holds is not looked for in messages (that would read every row); the other columns still match it.
   */
  private messageMatch(term: string): Condition[] {
    if (this.sql.engine === 'mysql') {
      const words = (term.match(/[\p{L}\p{N}_]+/gu) ?? []).filter((word) => [...word].length >= 3 && !STOPWORDS.has(word.toLowerCase()));
      if (!words.length) return [];
      const longest = words.reduce((a, b) => ([...b].length > [...a].length ? b : a));
      const like = contains('message', term);
      return [{ sql: `MATCH(message) AGAINST (? IN BOOLEAN MODE) AND ${like.sql}`, params: [`+${longest}*`, ...like.params] }];
    }
    if ([...term].length < 3) return [];
    return [{ sql: 'id IN (SELECT rowid FROM audit_logs_fts WHERE audit_logs_fts MATCH ?)', params: [`"${term.replace(/"/g, '""')}"`] }];
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
