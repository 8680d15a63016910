import { RecentValues } from '../../common/recent-values';
import { PreparedSql } from '../../database/prepared-sql';
import { COUNT_CAP, ESTIMATE_MARGIN, WINDOW_MAX, WINDOW_MIN } from '../access-log/access-log.constants';
import type { LogLevel } from './audit-log.entity';

export { COUNT_CAP };

type Param = string | number | boolean | null | Date;

/** A piece of a WHERE clause with its `?` parameters. */
export interface Condition {
  sql: string;
  params: Param[];
  /** The condition is `column` starting with `term`, on an index of (column, created_at): see LogListing.split. */
  prefix?: { column: string; term: string };
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
  /** OR-ed: a row matches the search when it matches any of them. Each is served by an index. */
  searchMatches(term: string): Condition[];
  /** The same ways of matching, as conditions to test on rows already read (where searchMatches uses a full-text index). */
  scanMatches?(term: string): Condition[];
}

export interface LogPage<T> {
  rows: T[];
  /** Rows matching, counted up to COUNT_CAP. */
  total: number;
  /**
   * More rows match than COUNT_CAP: `total` is a lower bound. Counted, or for a search estimated: the share of
   * matches among the newest entries times the table's rows, when that is over three times the cap.
   */
  capped: boolean;
  page: number;
  limit: number;
}

/** Rows per export batch: a batch is read, written and sent in well under the event loop's 50 ms. */
const EXPORT_BATCH = 1_000;

/** `LIKE 'term%'` with the wildcards in the term escaped ('!' escapes alike on SQLite and MySQL). */
export const startsWith = (column: string, term: string): Condition => ({
  sql: `${column} LIKE ? ESCAPE '!'`,
  params: [`${term.replace(/[!%_]/g, (c) => `!${c}`)}%`],
  prefix: { column, term },
});

export const contains = (column: string, term: string): Condition => ({
  sql: `${column} LIKE ? ESCAPE '!'`,
  params: [`%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`],
});

const countUpToSql = (table: string, where: Condition, limit: number) =>
  `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where.sql} LIMIT ${limit}) c`;

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

/** A count over COUNT_CAP is kept this long: the rows of a log only grow, but for a prune or a clear elsewhere. */
const CAPPED_FRESH_MS = 10_000;
/** Counts kept at most (the oldest go first). */
const CAPPED_KEPT = 256;
/** A prefix search covering at most this many distinct values reads each value's rows in order (see `ordered`). */
const PREFIX_VALUES = 16;
/** A prefix matching at most this many rows is read as one index range and its rows sorted (see `ordered`). */
const PREFIX_SORTED_ROWS = 500;

/**
 * The counts, by what they count, that last found more than COUNT_CAP rows, trusted for CAPPED_FRESH_MS: the first
 * page of a log is asked for every 30 s by each open screen, a search is paged through, and a count is most of the
 * cost of either. Forgotten (`forget`) once this process removed rows.
 */
export class KeptCounts {
  private readonly capped = new RecentValues<true>(CAPPED_KEPT);

  /** Whether the count of `key` is kept as past COUNT_CAP. */
  known(key: string): boolean {
    return this.capped.get(key, CAPPED_FRESH_MS) === true;
  }

  /** `count()` (which counts up to COUNT_CAP + 1), or COUNT_CAP + 1 at once where that is kept for `key`. */
  async count(key: string, count: () => Promise<number>): Promise<number> {
    if (this.known(key)) return COUNT_CAP + 1;
    const counted = await count();
    if (counted > COUNT_CAP) this.capped.set(key, true);
    else this.capped.delete(key);
    return counted;
  }

  forget(): void {
    this.capped.clear();
  }
}

/**
 * Pages through a log newest (or oldest) first; the rows come by id after the page's ids are found on an index
 * (a deep page skips index entries, not rows). A search first looks through the newest entries that pass the
 * filters (a window of at most WINDOW_MAX rows, read along created_at): a common term fills its page there. A rare
 * one then goes to the UNION of one index-backed query per way the term can match, each cut at the rows the page
 * needs: few rows match, so few are read. Neither scans the table.
 */
export class LogListing {
  /** Counts past COUNT_CAP, by their SQL and parameters (see KeptCounts). */
  private readonly counts = new KeptCounts();

  constructor(private readonly sql: PreparedSql) {}

  /** Forgets the kept counts (after this process removed rows). */
  forget(): void {
    this.counts.forget();
  }

  /** `count()`, or COUNT_CAP + 1 at once where the same count found more than that lately (see KeptCounts). */
  private boundedCount(sql: string, params: Param[], count: () => Promise<number>): Promise<number> {
    return this.counts.count(`${sql}\u0000${JSON.stringify(params)}`, count);
  }

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
      // The page's ids from the index (a deep page skips index entries), joined to their rows: one round trip.
      const ordered = `ORDER BY t.created_at ${direction}, t.id ${direction}`;
      const [rows, counted] = await Promise.all([
        this.sql.all<T>(
          `SELECT t.* FROM ${table} t JOIN (SELECT id FROM ${table} WHERE ${where.sql} ${order} LIMIT ${limit} OFFSET ${offset}) p ON t.id = p.id ${ordered}`,
          where.params,
        ),
        this.countWhere(table, where),
      ]);
      return this.result(rows, counted, page, limit);
    }

    // 1. The newest entries that pass the filters, each tested for every way the term can match, in one statement:
    // the first `need` matches (matches sort first), and how many entries the window held and matched. Only the
    // columns the test reads come out of the window; the page's rows are then read by id.
    const need = offset + limit;
    const size = Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, need * 20));
    const where = and(base);
    const scan = or(source.scanMatches?.(term) ?? source.searchMatches(term));
    const [windowed, span] = await Promise.all([
      this.sql.all<{ id: number; m: number | string; seen: number | string; hits: number | string }>(
        `SELECT id, m, COUNT(*) OVER () AS seen, SUM(m) OVER () AS hits FROM (SELECT id, created_at, ` +
          `CASE WHEN ${scan.sql} THEN 1 ELSE 0 END AS m FROM ${table} WHERE ${where.sql} ${order} LIMIT ${size}) w ` +
          `ORDER BY m DESC, created_at ${direction}, id ${direction} LIMIT ${need}`,
        [...scan.params, ...where.params],
      ),
      base.length ? null : this.idSpan(table),
    ]);
    const read = Number(windowed[0]?.seen ?? 0);
    const hits = Number(windowed[0]?.hits ?? 0);
    const pageIds = () =>
      windowed
        .filter((row) => Number(row.m) === 1)
        .slice(offset, need)
        .map((row) => Number(row.id));
    // The window held every entry that passes the filters: what it found is all there is.
    if (read < size) return this.result(await this.byIds<T>(table, pageIds(), order), hits, page, limit);
    if (hits >= need) {
      const estimate = span === null ? 0 : (hits / read) * span;
      const [rows, total] = await Promise.all([
        this.byIds<T>(table, pageIds(), order),
        estimate > ESTIMATE_MARGIN * COUNT_CAP ? COUNT_CAP + 1 : this.countMatches(source, base, term),
      ]);
      return this.result(rows, total, page, limit);
    }

    // 2. A rarer term: the few rows each way of matching finds on its index.
    const members = (await this.ordered(table, source.searchMatches(term))).map((match) => and([...base, match]));
    if (!members.length) return this.result([], 0, page, limit);
    const wanted = {
      sql: members
        .map((m, i) => `SELECT id, created_at FROM (SELECT id, created_at FROM ${table} WHERE ${m.sql} ${order} LIMIT ${need}) m${i}`)
        .join(' UNION '),
      params: members.flatMap((m) => m.params),
    };
    const [ids, total] = await Promise.all([
      this.sql.all<{ id: number }>(`SELECT id FROM (${wanted.sql}) u ${order} LIMIT ${limit} OFFSET ${offset}`, wanted.params),
      this.countMembers(table, members),
    ]);
    const found = ids.map((row) => Number(row.id));
    return this.result(await this.byIds<T>(table, found, order), total, page, limit);
  }

  /** The rows with these ids, in the list's order. */
  private async byIds<T>(table: string, ids: number[], order: string): Promise<T[]> {
    if (!ids.length) return [];
    return this.sql.all<T>(`SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) ${order}`, ids);
  }

  /**
   * The ways of matching, each in a form its index reads in created_at order. A prefix on an index of (column,
   * created_at) spans many values, so its rows come off the index unordered and the newest need a sort of every
   * match (800,000 for a common path). A prefix matching at most PREFIX_SORTED_ROWS rows (counted on the index)
   * stays as it is: sorting that few costs less than splitting it. A commoner one covering at most PREFIX_VALUES
   * values becomes one equality per value, each read in order along the index (a page's entries each). A prefix
   * nothing starts with is dropped. MariaDB/MySQL only: SQLite's LIKE is case-insensitive and reads no BINARY index.
   */
  private async ordered(table: string, matches: Condition[]): Promise<Condition[]> {
    if (this.sql.engine !== 'mysql') return matches;
    const split = await Promise.all(
      matches.map(async (match) => {
        if (!match.prefix) return [match];
        const found = await this.countUpTo(table, match, PREFIX_SORTED_ROWS + 1);
        if (found <= PREFIX_SORTED_ROWS) return found ? [match] : [];
        const values = await this.prefixValues(table, match);
        if (values.length > PREFIX_VALUES) return [match];
        return values.map((value) => ({ sql: `${match.prefix!.column} = ?`, params: [value] }));
      }),
    );
    return split.flat();
  }

  /**
   * The distinct values a prefix covers, up to PREFIX_VALUES + 1, each the next one along the column's index (one
   * entry read per value, one statement each). Not SELECT DISTINCT … LIMIT: MariaDB may read the whole range for it
   * (1.7 million entries for a common path) rather than skip from value to value. Nor a recursive CTE: there the
   * step's bound is a column of the CTE, not a constant, so MariaDB seeks only by the prefix and reads every entry
   * of the previous value (seconds for a path with 800,000 rows).
   */
  private async prefixValues(table: string, match: Condition): Promise<string[]> {
    const column = match.prefix!.column;
    const values: string[] = [];
    while (values.length <= PREFIX_VALUES) {
      const last = values.at(-1);
      const next = await this.sql.one<{ v: string }>(
        `SELECT ${column} AS v FROM ${table} WHERE ${match.sql}${last === undefined ? '' : ` AND ${column} > ?`} ORDER BY ${column} LIMIT 1`,
        last === undefined ? match.params : [...match.params, last],
      );
      if (!next) break;
      values.push(next.v);
    }
    return values;
  }

  /** Rows passing the filters, up to COUNT_CAP + 1. */
  private countWhere(table: string, where: Condition): Promise<number> {
    const sql = countUpToSql(table, where, COUNT_CAP + 1);
    return this.boundedCount(sql, where.params, () => this.countUpTo(table, where, COUNT_CAP + 1));
  }

  /** Rows matching `where`, counting no further than `limit` (one index range of at most `limit` entries). */
  private async countUpTo(table: string, where: Condition, limit: number): Promise<number> {
    return Number((await this.sql.one<{ n: number }>(countUpToSql(table, where, limit), where.params))?.n ?? 0);
  }

  /** Rows matching the term, counted up to COUNT_CAP + 1 on each way of matching's index (no ordering: no sort). */
  private async countMatches(source: LogSource, base: Condition[], term: string): Promise<number> {
    const table = this.sql.quote(source.table);
    const members = (await this.ordered(table, source.searchMatches(term))).map((match) => and([...base, match]));
    return this.countMembers(table, members);
  }

  /**
   * Rows any member matches, up to COUNT_CAP + 1: each member counted alone on its index first (one member over
   * the cap caps the total: no need to merge 10,000s of ids); only members that each match few are merged.
   */
  private async countMembers(table: string, members: Condition[]): Promise<number> {
    if (!members.length) return 0;
    const bounded = members.map((m) => `SELECT id FROM ${table} WHERE ${m.sql} LIMIT ${COUNT_CAP + 1}`);
    const sql = `SELECT ${bounded.map((sql, i) => `(SELECT COUNT(*) FROM (${sql}) c${i}) AS n${i}`).join(', ')}`;
    const params = members.flatMap((m) => m.params);
    let counts: number[] = [];
    const most = await this.boundedCount(sql, params, async () => {
      const each = await this.sql.one<Record<string, number | string>>(sql, params);
      counts = members.map((_m, i) => Number(each?.[`n${i}`] ?? 0));
      return Math.max(...counts);
    });
    if (most > COUNT_CAP) return COUNT_CAP + 1;
    const matching = members.filter((_m, i) => counts[i] > 0);
    if (matching.length <= 1) return Math.max(0, ...counts);
    const counted = await this.sql.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (${matching.map((m, i) => `SELECT id FROM (SELECT id FROM ${table} WHERE ${m.sql}) c${i}`).join(' UNION ')}) u`,
      matching.flatMap((m) => m.params),
    );
    return Number(counted?.n ?? 0);
  }

  /** The table's rows, estimated from its ids' span (two index lookups). */
  private async idSpan(table: string): Promise<number> {
    const span = await this.sql.one<{ low: number | null; high: number | null }>(
      `SELECT MIN(id) AS low, MAX(id) AS high FROM ${table}`,
      [],
    );
    if (span?.low === null || span?.low === undefined || span.high === null) return 0;
    return Number(span.high) - Number(span.low) + 1;
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
    const read = (after: number) => this.sql.bulk<Record<string, unknown>>(sql, [after, ...where.params]);
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
      if (deleted) this.forget();
      if (deleted < batch) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private result<T>(rows: T[], counted: number, page: number, limit: number): LogPage<T> {
    return { rows, total: Math.min(counted, COUNT_CAP), capped: counted > COUNT_CAP, page, limit };
  }
}
