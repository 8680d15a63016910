import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditLogEntity } from './audit-log.entity';
import type { LogFilters } from '../../common/log-listing';
import { commonFilters, Condition, contains, LogTableRepository, startsWith } from '../../database/log-table';

export type NewAuditLogRow = Omit<AuditLogEntity, 'id'>;

/** InnoDB's default full-text stopwords: a word among them is never found on the index. */
const STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' ',
  ),
);
const COLUMNS: Array<keyof NewAuditLogRow> = [
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

/** The audit trail's table (audit_logs): listed, searched (its messages on a full-text index), exported, pruned. */
@Injectable()
export class AuditLogRepository extends LogTableRepository<AuditLogEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, 'audit_logs');
  }

  insert(rows: NewAuditLogRow[]): Promise<void> {
    return this.insertRows(COLUMNS, rows);
  }

  protected filters(filters: LogFilters): Condition[] {
    return [...commonFilters(filters, 'actor_email'), ...(filters.level ? [{ sql: 'level = ?', params: [filters.level] }] : [])];
  }

  protected searchMatches(term: string): Condition[] {
    return [...this.columnMatches(term), ...this.messageMatch(term)];
  }

  /** On rows already read, the message is simply tested for the term (what the full-text index finds, and more). */
  protected override scanMatches(term: string): Condition[] {
    return [...this.columnMatches(term), ...(this.messageMatch(term).length ? [contains('message', term)] : [])];
  }

  protected read(row: AuditLogEntity): AuditLogEntity {
    return {
      ...row,
      id: Number(row.id),
      actor_id: row.actor_id === null ? null : Number(row.actor_id),
      created_at: this.sql.readDate(row.created_at)!,
    };
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
}
