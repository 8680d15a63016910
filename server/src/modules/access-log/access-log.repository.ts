import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Param, PreparedSql, SqlStatement } from '../../database/prepared-sql';
import type { AccessLogLevel, SegmentFilter, SegmentHead } from './access-log-query';
import { EncodedSegment, encodeSegments, NewAccessLogRow } from './access-log-segments';

export const SEGMENTS = 'access_log_segments';
export const TERMS = 'access_log_terms';
const HEAD_COLUMNS = 'id, first_at, last_at, row_count, errors, warnings';
const TERM_COLUMNS = ['n', 'value', 'hits', 'errors', 'warnings'];

/** Segments that may hold rows of the level, by their counts. */
const LEVEL_SQL: Record<AccessLogLevel, string> = {
  error: 'errors > 0',
  warning: 'warnings > 0',
  info: 'errors + warnings < row_count',
  debug: '1 = 0',
};

/** A stored segment's body, as read for a list or an export. */
export interface SegmentBody {
  id: number;
  body: string;
  row_count: number;
}

/**
 * The access log's segments (access_log_segments), written with their terms (access_log_terms) in one transaction:
 * each segment's head (time span, counts) read to plan a list, its body read to show its rows. The term index's
 * lookups are AccessLogTermsRepository's.
 */
@Injectable()
export class AccessLogRepository {
  private readonly sql: PreparedSql;

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** `limit` heads of segments passing `filter`, in id order, after the segment `after` (null: from the first). */
  heads(filter: SegmentFilter, descending: boolean, after: number | null, limit: number): Promise<SegmentHead[]> {
    const where = this.where(filter);
    const [direction, beyond] = descending ? ['DESC', '<'] : ['ASC', '>'];
    return this.readHeads(
      `SELECT ${HEAD_COLUMNS} FROM ${this.sql.quote(SEGMENTS)} WHERE ${where.sql}${after === null ? '' : ` AND id ${beyond} ?`} ` +
        `ORDER BY id ${direction} LIMIT ${limit}`,
      after === null ? where.params : [...where.params, after],
    );
  }

  /** The heads of the segments `ids` that pass `filter`, in id order. */
  headsOf(ids: number[], filter: SegmentFilter, descending: boolean): Promise<SegmentHead[]> {
    const where = this.where(filter);
    return this.readHeads(
      `SELECT ${HEAD_COLUMNS} FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${where.sql} ` +
        `ORDER BY id ${descending ? 'DESC' : 'ASC'}`,
      [...ids, ...where.params],
    );
  }

  /**
   * The bodies of the segments `ids` (those still stored). `bulk`: an export's walk through every segment, read
   * past the app's page cache (see PreparedSql.bulk).
   */
  bodies(ids: number[], bulk: boolean): Promise<SegmentBody[]> {
    const sql = `SELECT id, body, row_count FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${ids.map(() => '?').join(', ')})`;
    return (bulk ? this.sql.bulk<SegmentBody>(sql, ids) : this.sql.all<SegmentBody>(sql, ids)).then((rows) =>
      rows.map((row) => ({ id: Number(row.id), body: row.body, row_count: Number(row.row_count) })),
    );
  }

  /** Stores the segments with their terms, in one transaction; resolves to their ids, in order. */
  async insert(segments: EncodedSegment[]): Promise<number[]> {
    const statements = this.inserting(segments);
    const ids = await this.sql.atomicallyWithIds(statements.map(({ statement }) => statement));
    return statements.flatMap(({ segment }, i) => (segment ? [ids[i]] : []));
  }

  /** The statements that store the rows in new segments, with their terms, to run in one transaction (a migration's). */
  statements(rows: NewAccessLogRow[]): SqlStatement[] {
    return this.inserting(encodeSegments(rows)).map(({ statement }) => statement);
  }

  /** Replaces the segment `id` by `segment` (its rows and more), terms and all, in one transaction. */
  replace(id: number, segment: EncodedSegment): Promise<void> {
    return this.sql.atomically([
      { sql: `DELETE FROM ${this.sql.quote(TERMS)} WHERE segment_id = ?`, params: [id] },
      { sql: `DELETE FROM ${this.sql.quote(SEGMENTS)} WHERE id = ?`, params: [id] },
      {
        sql: `INSERT INTO ${this.sql.quote(SEGMENTS)} (id, first_at, last_at, row_count, errors, warnings, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        params: [id, segment.first_at, segment.last_at, segment.row_count, segment.errors, segment.warnings, segment.body],
      },
      ...this.sql.insertStatements(
        TERMS,
        ['segment_id', ...TERM_COLUMNS],
        termRows(segment).map((row) => [id, ...row]),
      ),
    ]);
  }

  /** Deletes the oldest `limit` segments whose every row is older than `before`, with their terms, in one transaction. */
  async deleteOlder(before: Date, limit: number): Promise<{ segments: number; rows: number }> {
    const old = await this.sql.all<{ id: number; row_count: number }>(
      `SELECT id, row_count FROM ${this.sql.quote(SEGMENTS)} WHERE last_at < ? ORDER BY last_at LIMIT ${limit}`,
      [before],
    );
    if (!old.length) return { segments: 0, rows: 0 };
    const ids = old.map((segment) => Number(segment.id));
    const list = ids.map(() => '?').join(', ');
    await this.sql.atomically([
      { sql: `DELETE FROM ${this.sql.quote(TERMS)} WHERE segment_id IN (${list})`, params: ids },
      { sql: `DELETE FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${list})`, params: ids },
    ]);
    return { segments: old.length, rows: old.reduce((sum, segment) => sum + Number(segment.row_count), 0) };
  }

  async clear(): Promise<void> {
    const statements = [TERMS, SEGMENTS].map((table) => ({
      sql: this.sql.engine === 'mysql' ? `TRUNCATE TABLE ${this.sql.quote(table)}` : `DELETE FROM ${this.sql.quote(table)}`,
      params: [],
    }));
    // TRUNCATE commits by itself on MySQL: one after the other there.
    if (this.sql.engine === 'mysql') for (const statement of statements) await this.sql.run(statement.sql, []);
    else await this.sql.atomically(statements);
  }

  /** Each segment's INSERT, then its terms' (the segment's id, just generated, read in SQL). */
  private inserting(segments: EncodedSegment[]): Array<{ statement: SqlStatement; segment?: EncodedSegment }> {
    // The connection's last generated id on MySQL; on SQLite, whose writes are serial, the highest
    // (last_insert_rowid would be the previous term's row after the first INSERT of terms).
    const segmentId = this.sql.engine === 'mysql' ? 'LAST_INSERT_ID()' : `(SELECT MAX(id) FROM ${this.sql.quote(SEGMENTS)})`;
    return segments.flatMap((segment) => [
      {
        statement: {
          sql: `INSERT INTO ${this.sql.quote(SEGMENTS)} (first_at, last_at, row_count, errors, warnings, body) VALUES (?, ?, ?, ?, ?, ?)`,
          params: [segment.first_at, segment.last_at, segment.row_count, segment.errors, segment.warnings, segment.body],
          prepared: true,
        },
        segment,
      },
      ...this.sql
        .insertStatements(TERMS, TERM_COLUMNS, termRows(segment), { fixed: { segment_id: segmentId } })
        .map((statement) => ({ statement })),
    ]);
  }

  /** Segments that may hold rows passing the date and level filters, as SQL. */
  private where({ from, to, level }: SegmentFilter): { sql: string; params: Param[] } {
    const conditions: Array<{ sql: string; params: Param[] }> = [];
    if (from) conditions.push({ sql: 'last_at >= ?', params: [from] });
    if (to) conditions.push({ sql: 'first_at <= ?', params: [to] });
    if (level) conditions.push({ sql: LEVEL_SQL[level], params: [] });
    return conditions.length
      ? { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) }
      : { sql: '1 = 1', params: [] };
  }

  private async readHeads(sql: string, params: Param[]): Promise<SegmentHead[]> {
    const rows = await this.sql.all<Record<string, unknown>>(sql, params);
    return rows.map((row) => ({
      id: Number(row.id),
      first_at: this.sql.readDate(row.first_at)!,
      last_at: this.sql.readDate(row.last_at)!,
      row_count: Number(row.row_count),
      errors: Number(row.errors),
      warnings: Number(row.warnings),
    }));
  }
}

/** A segment's terms as rows of TERM_COLUMNS. */
function termRows(segment: EncodedSegment): Param[][] {
  const rows: Param[][] = [];
  for (const [value, { hits, errors, warnings }] of segment.terms) rows.push([rows.length, value, hits, errors, warnings]);
  return rows;
}
