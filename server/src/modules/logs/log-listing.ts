import { PreparedSql } from '../../database/prepared-sql';
import type { LogLevel } from './audit-log.entity';

type Param = string | number | boolean | null | Date;

/** A piece of a WHERE clause with its `?` parameters. */
export interface Condition {
  sql: string;
  params: Param[];
}

export interface LogFilters {
  search?: string;
  level?: LogLevel;
  from?: Date;
  to?: Date;
  /** The user's e-mail address, or its beginning. */
  user?: string;
  order?: 'asc' | 'desc';
  page?: number;
  limit?: number;
}

/** How one log table is read: its filters, and the ways a search term can match it (each on an index). */
export interface LogSource {
  table: string;
  filters(filters: LogFilters): Condition[];
  /** OR-ed: a row matches the search when it matches any of them. */
  searchMatches(term: string): Condition[];
}

export interface LogPage<T> {
  rows: T[];
  /** Rows matching, counted up to COUNT_CAP. */
  total: number;
  /** More rows match than COUNT_CAP: `total` is a lower bound. */
  capped: boolean;
  page: number;
  limit: number;
}

/** Counting stops here: an exact count of millions of rows costs seconds, and nobody pages that far. */
export const COUNT_CAP = 10_000;
/** Rows per export batch: a batch is read, written and sent in well under the event loop's 50 ms. */
const EXPORT_BATCH = 2_000;

/** `LIKE 'term%'` with the wildcards in the term escaped ('!' escapes alike on SQLite and MySQL). */
export const startsWith = (column: string, term: string): Condition => ({
  sql: `${column} LIKE ? ESCAPE '!'`,
  params: [`${term.replace(/[!%_]/g, (c) => `!${c}`)}%`],
});

export const contains = (column: string, term: string): Condition => ({
  sql: `${column} LIKE ? ESCAPE '!'`,
  params: [`%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`],
});

const and = (conditions: Condition[]): Condition =>
  conditions.length
    ? { sql: conditions.map((c) => `(${c.sql})`).join(' AND '), params: conditions.flatMap((c) => c.params) }
    : { sql: '1 = 1', params: [] };

const or = (conditions: Condition[]): Condition => ({
  sql: conditions.map((c) => `(${c.sql})`).join(' OR '),
  params: conditions.flatMap((c) => c.params),
});

/** The filters every log shares: date range and the user's e-mail (by prefix). */
export function commonFilters(filters: LogFilters, userColumn: string | null): Condition[] {
  const conditions: Condition[] = [];
  if (filters.from) conditions.push({ sql: 'created_at >= ?', params: [filters.from] });
  if (filters.to) conditions.push({ sql: 'created_at <= ?', params: [filters.to] });
  if (filters.user?.trim() && userColumn) conditions.push(startsWith(userColumn, filters.user.trim().toLowerCase()));
  return conditions;
}

/**
 * Pages through a log newest (or oldest) first. A search is the UNION of one index-backed query per way the term
 * can match, each cut at the rows the page needs, so neither a common nor a rare term scans the table.
 */
export class LogListing {
  constructor(private readonly sql: PreparedSql) {}

  async page<T>(source: LogSource, filters: LogFilters): Promise<LogPage<T>> {
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 25;
    const direction = filters.order === 'asc' ? 'ASC' : 'DESC';
    const order = `ORDER BY created_at ${direction}, id ${direction}`;
    const offset = (page - 1) * limit;
    const base = source.filters(filters);
    const term = filters.search?.trim();
    const table = this.sql.quote(source.table);

    if (!term) {
      const where = and(base);
      const [rows, counted] = await Promise.all([
        this.sql.all<T>(`SELECT * FROM ${table} WHERE ${where.sql} ${order} LIMIT ${limit} OFFSET ${offset}`, where.params),
        this.sql.one<{ n: number }>(
          `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where.sql} LIMIT ${COUNT_CAP + 1}) c`,
          where.params,
        ),
      ]);
      return this.result(rows, Number(counted?.n ?? 0), page, limit);
    }

    const members = source.searchMatches(term).map((match) => and([...base, match]));
    const union = (cut: number) => ({
      sql: members
        .map((m, i) => `SELECT id, created_at FROM (SELECT id, created_at FROM ${table} WHERE ${m.sql} ${order} LIMIT ${cut}) m${i}`)
        .join(' UNION '),
      params: members.flatMap((m) => m.params),
    });
    const wanted = union(offset + limit);
    const counting = union(COUNT_CAP + 1);
    const [ids, counted] = await Promise.all([
      this.sql.all<{ id: number }>(`SELECT id FROM (${wanted.sql}) u ${order} LIMIT ${limit} OFFSET ${offset}`, wanted.params),
      this.sql.one<{ n: number }>(`SELECT COUNT(*) AS n FROM (${counting.sql}) u`, counting.params),
    ]);
    const rows = ids.length
      ? await this.sql.all<T>(
          `SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) ${order}`,
          ids.map((row) => Number(row.id)),
        )
      : [];
    return this.result(rows, Number(counted?.n ?? 0), page, limit);
  }

  /**
   * Every matching row, oldest first, in batches read by id (keyset: constant memory and cost per batch, whatever
   * the size), as the driver returns them. The next batch is asked for before this one is handed out, so the
   * database reads while the caller writes; the caller gives the event loop its turns between batches.
   */
  async *batches(source: LogSource, filters: LogFilters): AsyncGenerator<Array<Record<string, unknown>>> {
    const term = filters.search?.trim();
    const where = and([...source.filters(filters), ...(term ? [or(source.searchMatches(term))] : [])]);
    const sql = `SELECT * FROM ${this.sql.quote(source.table)} WHERE id > ? AND ${where.sql} ORDER BY id LIMIT ${EXPORT_BATCH}`;
    const read = (after: number) => this.sql.all<Record<string, unknown>>(sql, [after, ...where.params]);
    let next: Promise<Array<Record<string, unknown>>> | null = read(0);
    try {
      while (next) {
        const rows: Array<Record<string, unknown>> = await next;
        next = rows.length === EXPORT_BATCH ? read(Number(rows[rows.length - 1].id)) : null;
        if (rows.length) yield rows;
      }
    } finally {
      // The caller stopped early (the client went): the read ahead is not wanted, nor its failure.
      next?.catch(() => undefined);
    }
  }

  /** Deletes rows older than `before` in batches (never one huge DELETE); returns how many went. */
  async prune(table: string, before: Date, batch = 5_000): Promise<number> {
    const quoted = this.sql.quote(table);
    let removed = 0;
    for (;;) {
      // The id of the batch's last row: the batch is every older row up to it.
      const last = await this.sql.one<{ id: number }>(
        `SELECT MAX(id) AS id FROM (SELECT id FROM ${quoted} WHERE created_at < ? ORDER BY id LIMIT ${batch}) b`,
        [before],
      );
      if (last?.id === null || last?.id === undefined) return removed;
      const deleted = await this.sql.run(`DELETE FROM ${quoted} WHERE id <= ? AND created_at < ?`, [Number(last.id), before]);
      removed += deleted;
      if (deleted < batch) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private result<T>(rows: T[], counted: number, page: number, limit: number): LogPage<T> {
    return { rows, total: Math.min(counted, COUNT_CAP), capped: counted > COUNT_CAP, page, limit };
  }
}
