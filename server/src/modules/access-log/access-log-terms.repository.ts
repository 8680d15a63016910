import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Param, PreparedSql } from '../../database/prepared-sql';
import type { AccessLogLevel, TermEntry, TermLookup } from './access-log-query';
import { TERMS } from './access-log.repository';

/** A term's rows of the level, as SQL over its columns. */
const LEVEL_ROWS_SQL: Record<AccessLogLevel, string> = {
  error: 'errors',
  warning: 'warnings',
  info: 'hits - errors - warnings',
  debug: '0',
};

interface Condition {
  sql: string;
  params: Param[];
}

/**
 * The access log's term index (access_log_terms, written with their segments by AccessLogRepository): which
 * segments hold a searched value, read from the covering index on (value, segment_id, counts) alone.
 */
@Injectable()
export class AccessLogTermsRepository {
  private readonly sql: PreparedSql;

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** The entries of the terms the lookup matches, `limit` + 1 at most (one more tells there are more). */
  entries(lookup: TermLookup, limit: number): Promise<TermEntry[]> {
    const where = this.or(this.conditions(lookup));
    return this.sql.all<TermEntry>(
      `SELECT segment_id AS id, value, hits, errors, warnings FROM ${this.sql.quote(TERMS)} WHERE ${where.sql} LIMIT ${limit + 1}`,
      where.params,
    );
  }

  /** Of the segments from `first` to `last`, those holding one of `values`, read as ranges of the index. */
  async holding(values: string[], first: number, last: number): Promise<Set<number>> {
    const rows = await this.sql.all<{ id: number }>(
      `SELECT segment_id AS id FROM ${this.sql.quote(TERMS)} WHERE value IN (${values.map(() => '?').join(', ')}) ` +
        'AND segment_id BETWEEN ? AND ?',
      [...values, first, last],
    );
    return new Set(rows.map((row) => Number(row.id)));
  }

  /**
   * The distinct values of the terms the lookup matches, when there are at most `most` of them (else null),
   * found one index seek at a time: a prefix matching a few values in thousands of segments costs a few seeks, one
   * matching thousands of values stops at `most` + 1.
   */
  async fewValues(lookup: TermLookup, most: number): Promise<string[] | null> {
    const values: string[] = [];
    for (const condition of this.conditions(lookup)) {
      for (let after: string | null = null; ;) {
        const [next]: Array<{ value: string }> = await this.sql.all<{ value: string }>(
          `SELECT value FROM ${this.sql.quote(TERMS)} WHERE (${condition.sql})${after === null ? '' : ' AND value > ?'} ` +
            'ORDER BY value LIMIT 1',
          after === null ? condition.params : [...condition.params, after],
        );
        if (!next) break;
        if (values.push(next.value) > most) return null;
        after = next.value;
      }
    }
    return values;
  }

  /**
   * For a status search (the lookup's exact values): whether any path, route, address or e-mail starts with its
   * digits (`prefixed`, the lookup's prefixes), and the status's rows of the level (null: all) in the newest
   * `newestEntries` segments holding it (`newest`), in one statement over the index. Without `sum`, `newest` is
   * `otherwise`, unread.
   */
  async statusProbe(
    lookup: TermLookup,
    level: AccessLogLevel | null,
    { sum, newestEntries, otherwise }: { sum: boolean; newestEntries: number; otherwise: number },
  ): Promise<{ prefixed: boolean; newest: number }> {
    const terms = this.sql.quote(TERMS);
    const values = lookup.exact;
    const prefixes = this.or(lookup.prefixes.map((prefix) => this.prefix('value', prefix)));
    const rows = level ? LEVEL_ROWS_SQL[level] : 'hits';
    const newest = sum
      ? `(SELECT SUM(n) FROM (SELECT ${rows} AS n FROM ${terms} WHERE value IN (${values.map(() => '?').join(', ')}) ` +
        `ORDER BY segment_id DESC LIMIT ${newestEntries}) newest)`
      : String(otherwise);
    const [probe] = await this.sql.all<{ prefixed: unknown; newest: unknown }>(
      `SELECT (SELECT 1 FROM ${terms} WHERE ${prefixes.sql} LIMIT 1) AS prefixed, ${newest} AS newest`,
      [...prefixes.params, ...(sum ? values : [])],
    );
    return { prefixed: probe.prefixed !== null, newest: Number(probe.newest ?? 0) };
  }

  /** The lookup's prefixes, then its exact values, each as a condition on `value`. */
  private conditions(lookup: TermLookup): Condition[] {
    return [
      ...lookup.prefixes.map((prefix) => this.prefix('value', prefix)),
      ...lookup.exact.map((value) => ({ sql: 'value = ?', params: [value] })),
    ];
  }

  private or(conditions: Condition[]): Condition {
    return { sql: `(${conditions.map((c) => `(${c.sql})`).join(' OR ')})`, params: conditions.flatMap((c) => c.params) };
  }

  /**
   * `column` starts with `prefix`, read as a range of its index: LIKE on MySQL (whose column collation ignores
   * case, as the terms are lower-cased anyway), a range on SQLite (whose LIKE reads no index of a BINARY column).
   */
  private prefix(column: string, prefix: string): Condition {
    if (this.sql.engine === 'mysql')
      return { sql: `${column} LIKE ? ESCAPE '!'`, params: [`${prefix.replace(/[!%_]/g, (c) => `!${c}`)}%`] };
    return { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, `${prefix}\u{10FFFF}`] };
  }
}
