import { DataSource } from 'typeorm';
import { COUNT_CAP, CountPastCap, ESTIMATE_MARGIN, LogFilters, LogPage, RawRow, windowSize } from '../common/log-listing';
import { Param, PreparedSql } from './prepared-sql';

/** A piece of a WHERE clause with its `?` parameters. */
export interface Condition {
  sql: string;
  params: Param[];
  /** The condition is `column` starting with `term`, on an index of (column, created_at): see LogTableRepository.ordered. */
  prefix?: { column: string; term: string };
}

/** Rows per export batch: a batch is read, written and sent without holding the event loop for long. */
const EXPORT_BATCH = 1_000;
/** A prefix search covering at most this many distinct values reads each value's rows in order (see `ordered`). */
const PREFIX_VALUES = 16;
/** A prefix matching at most this many rows is read as one index range and its rows sorted (see `ordered`). */
const PREFIX_SORTED_ROWS = 500;

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

/** The filters every log shares: date range and the user's e-mail (by prefix). */
export function commonFilters(filters: LogFilters, userColumn: string | null): Condition[] {
  const conditions: Condition[] = [];
  if (filters.from) conditions.push({ sql: 'created_at >= ?', params: [filters.from] });
  if (filters.to) conditions.push({ sql: 'created_at <= ?', params: [filters.to] });
  if (filters.user?.trim() && userColumn) conditions.push(startsWith(userColumn, filters.user.trim().toLowerCase()));
  return conditions;
}

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

/**
 * Rows come by id after the page's ids are found on an index (a deep page skips index entries, not rows). A search first tests a
 * window of the newest filtered entries, where a common term fills its page; a rare one goes to a UNION of index-backed queries,
 * one per way of matching, each cut at the rows the page needs. Neither scans the table.
 */
export abstract class LogTableRepository<Row, Filters extends LogFilters = LogFilters> {
  protected readonly sql: PreparedSql;

  protected constructor(
    dataSource: DataSource,
    private readonly tableName: string,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** Stores rows, all or nothing, as multi-row INSERTs of the given columns. */
  protected insertRows<T>(columns: Array<keyof T & string>, rows: T[]): Promise<void> {
    return this.sql.insertMany(
      this.tableName,
      columns,
      rows.map((row) => columns.map((column) => row[column] as Param)),
    );
  }

  /** The list's filters as conditions, each served by an index. */
  protected abstract filters(filters: Filters): Condition[];
  /** OR-ed: a row matches the search when it matches any of them. Each is served by an index. */
  protected abstract searchMatches(term: string): Condition[];
  /** The same ways of matching, as conditions to test on rows already read (where searchMatches uses a full-text index). */
  protected scanMatches(term: string): Condition[] {
    return this.searchMatches(term);
  }
  /** A row as the driver returns it, with the types of the entity. */
  protected abstract read(row: Row): Row;

  /** A page of rows and their count; `counted` caches counts past COUNT_CAP (see countPastCap). */
  async page(filters: Filters, counted: CountPastCap): Promise<LogPage<Row>> {
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 25;
    const direction = filters.order === 'asc' ? 'ASC' : 'DESC';
    const order = `ORDER BY created_at ${direction}, id ${direction}`;
    const offset = (page - 1) * limit;
    const base = this.filters(filters);
    const term = filters.search?.trim();
    const table = this.sql.quote(this.tableName);
    const result = (rows: Row[], count: number) => ({
      rows: rows.map((row) => this.read(row)),
      total: Math.min(count, COUNT_CAP),
      capped: count > COUNT_CAP,
      page,
      limit,
    });

    if (!term) {
      const where = and(base);
      // The page's ids from the index (a deep page skips index entries), joined to their rows: one round trip.
      const ordered = `ORDER BY t.created_at ${direction}, t.id ${direction}`;
      const [rows, count] = await Promise.all([
        this.sql.all<Row>(
          `SELECT t.* FROM ${table} t JOIN (SELECT id FROM ${table} WHERE ${where.sql} ${order} LIMIT ${limit} OFFSET ${offset}) p ON t.id = p.id ${ordered}`,
          where.params,
        ),
        this.countWhere(table, where, counted),
      ]);
      return result(rows, count);
    }

    // 1. The newest filtered entries, tested for every way of matching in one statement; only the tested columns come out of the
    // window, the page's rows are then read by id.
    const need = offset + limit;
    const size = windowSize(need);
    const where = and(base);
    const scan = or(this.scanMatches(term));
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
    if (read < size) return result(await this.byIds(table, pageIds(), order), hits);
    if (hits >= need) {
      const estimate = span === null ? 0 : (hits / read) * span;
      const [rows, total] = await Promise.all([
        this.byIds(table, pageIds(), order),
        estimate > ESTIMATE_MARGIN * COUNT_CAP ? COUNT_CAP + 1 : this.countMatches(table, base, term, counted),
      ]);
      return result(rows, total);
    }

    // 2. A rarer term: the few rows each way of matching finds on its index.
    const members = (await this.ordered(table, this.searchMatches(term))).map((match) => and([...base, match]));
    if (!members.length) return result([], 0);
    const wanted = {
      sql: members
        .map((m, i) => `SELECT id, created_at FROM (SELECT id, created_at FROM ${table} WHERE ${m.sql} ${order} LIMIT ${need}) m${i}`)
        .join(' UNION '),
      params: members.flatMap((m) => m.params),
    };
    const [ids, total] = await Promise.all([
      this.sql.all<{ id: number }>(`SELECT id FROM (${wanted.sql}) u ${order} LIMIT ${limit} OFFSET ${offset}`, wanted.params),
      this.countMembers(table, members, counted),
    ]);
    const idsFound = ids.map((row) => Number(row.id));
    return result(await this.byIds(table, idsFound, order), total);
  }

  /** Keyset batches (constant memory and cost each); the next is read ahead, so the database reads while the caller writes. */
  async *batches(filters: Filters): AsyncGenerator<RawRow[]> {
    const term = filters.search?.trim();
    const where = and([...this.filters(filters), ...(term ? [or(this.searchMatches(term))] : [])]);
    const sql = `SELECT * FROM ${this.sql.quote(this.tableName)} WHERE id > ? AND ${where.sql} ORDER BY id LIMIT ${EXPORT_BATCH}`;
    const read = (after: number) => this.sql.bulk<RawRow>(sql, [after, ...where.params]);
    let next: Promise<RawRow[]> | null = read(0);
    try {
      while (next) {
        const rows: RawRow[] = await next;
        next = rows.length === EXPORT_BATCH ? read(Number(rows[rows.length - 1].id)) : null;
        if (rows.length) yield rows;
      }
    } finally {
      // The caller stopped early (the client went): the read ahead is not wanted, nor its failure.
      next?.catch(() => undefined);
    }
  }

  async deleteOlder(before: Date, limit: number): Promise<number> {
    const table = this.sql.quote(this.tableName);
    // The id of the batch's last row: the batch is every older row up to it.
    const last = await this.sql.one<{ id: number }>(
      `SELECT MAX(id) AS id FROM (SELECT id FROM ${table} WHERE created_at < ? ORDER BY id LIMIT ${limit}) b`,
      [before],
    );
    if (last?.id === null || last?.id === undefined) return 0;
    return this.sql.run(`DELETE FROM ${table} WHERE id <= ? AND created_at < ?`, [Number(last.id), before]);
  }

  async clear(): Promise<void> {
    const table = this.sql.quote(this.tableName);
    await this.sql.run(this.sql.engine === 'mysql' ? `TRUNCATE TABLE ${table}` : `DELETE FROM ${table}`, []);
  }

  private async byIds(table: string, ids: number[], order: string): Promise<Row[]> {
    if (!ids.length) return [];
    return this.sql.all<Row>(`SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) ${order}`, ids);
  }

  /**
   * A prefix spanning many values comes off its (column, created_at) index unordered, so the newest need a sort of every match.
   * Few rows: kept (sorting few costs less than splitting). Few values: one equality per value, each read in order. None: dropped.
   * MariaDB/MySQL only: SQLite's LIKE is case-insensitive and reads no BINARY index.
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
   * One seek per value. Not SELECT DISTINCT … LIMIT: MariaDB may read the whole range. Nor a recursive CTE: its step's bound is a
   * column, not a constant, so MariaDB seeks only by the prefix and reads every entry of the previous value.
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
  private countWhere(table: string, where: Condition, counted: CountPastCap): Promise<number> {
    const key = `${countUpToSql(table, where, COUNT_CAP + 1)}\u0000${JSON.stringify(where.params)}`;
    return counted(key, () => this.countUpTo(table, where, COUNT_CAP + 1));
  }

  /** Rows matching `where`, counting no further than `limit` (one index range of at most `limit` entries). */
  private async countUpTo(table: string, where: Condition, limit: number): Promise<number> {
    return Number((await this.sql.one<{ n: number }>(countUpToSql(table, where, limit), where.params))?.n ?? 0);
  }

  /** Rows matching the term, counted up to COUNT_CAP + 1 on each way of matching's index (no ordering: no sort). */
  private async countMatches(table: string, base: Condition[], term: string, counted: CountPastCap): Promise<number> {
    const members = (await this.ordered(table, this.searchMatches(term))).map((match) => and([...base, match]));
    return this.countMembers(table, members, counted);
  }

  /** Each member counted alone first (one over the cap caps the total, no ids merged); only members that match few are merged. */
  private async countMembers(table: string, members: Condition[], counted: CountPastCap): Promise<number> {
    if (!members.length) return 0;
    const bounded = members.map((m) => `SELECT id FROM ${table} WHERE ${m.sql} LIMIT ${COUNT_CAP + 1}`);
    const sql = `SELECT ${bounded.map((sql, i) => `(SELECT COUNT(*) FROM (${sql}) c${i}) AS n${i}`).join(', ')}`;
    const params = members.flatMap((m) => m.params);
    let counts: number[] = [];
    const most = await counted(`${sql}\u0000${JSON.stringify(params)}`, async () => {
      const each = await this.sql.one<Record<string, number | string>>(sql, params);
      counts = members.map((_m, i) => Number(each?.[`n${i}`] ?? 0));
      return Math.max(...counts);
    });
    if (most > COUNT_CAP) return COUNT_CAP + 1;
    const matching = members.filter((_m, i) => counts[i] > 0);
    if (matching.length <= 1) return Math.max(0, ...counts);
    const union = await this.sql.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (${matching.map((m, i) => `SELECT id FROM (SELECT id FROM ${table} WHERE ${m.sql}) c${i}`).join(' UNION ')}) u`,
      matching.flatMap((m) => m.params),
    );
    return Number(union?.n ?? 0);
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
}
