import { Injectable, Logger } from '@nestjs/common';
import { Cache } from '../../common/cache';
import {
  CAPPED_COUNT_TTL_MS,
  CAPPED_COUNTS_MAX,
  countPastCap,
  LogFilters,
  LogPage,
  pruneInBatches,
  RawRow,
} from '../../common/log-listing';
import { JOB_FAILED, type JobFailedEvent, OnNotification } from '../../common/events';
import { MAX_LENGTH } from '../../database/column-lengths';
import { GroupCommit } from '../../database/group-commit';
import { AuditLogEntity, LogLevel } from './audit-log.entity';
import { AuditLogRepository, NewAuditLogRow } from './audit-log.repository';
import { parseContext } from './log-entries';
import { StoredBeforeShutdown } from '../../common/written-behind-log';

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

/**
 * The audit trail. Entries are written off the request's path, in batches (group commit); a failed write is
 * logged, never thrown at the request that caused it. Everything queued is written before shutdown.
 */
@Injectable()
export class AuditLogService extends StoredBeforeShutdown {
  private readonly logger = new Logger('AuditLog');
  private readonly writer = new GroupCommit<NewAuditLogRow>((rows) => this.repository.insert(rows));
  /** Counts past COUNT_CAP (see countPastCap), cleared when this service removes rows. */
  private readonly counts = new Cache<number>({ max: CAPPED_COUNTS_MAX, ttlMs: CAPPED_COUNT_TTL_MS });

  constructor(private readonly repository: AuditLogRepository) {
    super();
  }

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

  /** Queues the entry; resolves when it is stored (callers need not wait). */
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

  list(filters: LogFilters): Promise<LogPage<AuditLogEntity>> {
    return this.repository.page(filters, (key, count) => countPastCap(this.counts, key, count));
  }

  /** The newest entries, for the dashboard's Recent Activity. */
  async recent(limit: number): Promise<AuditLogEntity[]> {
    return (await this.list({ limit, page: 1 })).rows;
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts). */
  batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    return this.repository.batches(filters);
  }

  /** Deletes entries older than `before` in batches (never one huge DELETE); returns how many went. */
  prune(before: Date): Promise<number> {
    return pruneInBatches((batch) => this.repository.deleteOlder(before, batch), this.counts);
  }

  flush(): Promise<void> {
    return this.writer.drain();
  }
}

/** The parts an audit entry's message is made of (subject, refusal status and reason), from its stored context. */
export function messageParts(context: string | null): { subject: string | null; status: number | null; reason: string | null } {
  const fields = parseContext(context) ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return { subject: text(fields.subject), status: typeof fields.status === 'number' ? fields.status : null, reason: text(fields.reason) };
}
