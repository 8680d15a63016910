import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { EXACT_TOTAL_CAP, ListTotals, PageMark, TotalCounter } from '../common/list-totals';
import type { Page, PageRequest } from '../common/pagination';
import { OffLoopReads } from './off-loop-reads';

export { EXACT_TOTAL_CAP };

export interface PageSort {
  /** The column(s) to sort by, in the requested direction (descending unless asked). */
  by: string | readonly string[];
  /** The id column, sorted last in the same direction, so rows with equal sort values keep one order across pages. */
  id: string;
  /** Rows per page unless the request says (25 unless a list says otherwise). */
  defaultLimit?: number;
  /** The sort column is unique: no id after it (MariaDB would sort every row for `unique_column, id`). */
  unique?: boolean;
  /** Never-changing columns (creation times): a deep page starts from a ListTotals page mark instead of counting off every row. */
  fixed?: readonly string[];
}

/** The column of a requested sort key, or of the default key when none (or an unknown one) is asked for. */
export function sortColumn<K extends string, C>(columns: Record<K, C>, key: string | undefined, fallback: K): C {
  return Object.prototype.hasOwnProperty.call(columns, key ?? '') ? columns[key as K] : columns[fallback];
}

/** Escapes LIKE wildcards so a search for `50%` finds "50%", not everything ('!' escapes alike on SQLite and MySQL). */
export function likePattern(search: string): string {
  return `%${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export function whereSearch<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, columns: string[], search?: string): SelectQueryBuilder<T> {
  const term = search?.trim();
  if (!term) return qb;
  return qb.andWhere(
    new Brackets((where) => {
      for (const column of columns) where.orWhere(`${column} LIKE :search ESCAPE '!'`, { search: likePattern(term) });
    }),
  );
}

/** Sorts a query, reads one page of it and counts every matching row (TypeORM's getManyAndCount). */
export async function readPage<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, request: PageRequest, sort: PageSort): Promise<Page<T>> {
  const page = request.page ?? 1;
  const limit = request.limit ?? sort.defaultLimit ?? 25;
  const direction = (request.order ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
  for (const column of typeof sort.by === 'string' ? [sort.by] : sort.by) qb.addOrderBy(column, direction);
  qb.addOrderBy(sort.id, direction);
  const [rows, total] = await qb
    .skip((page - 1) * limit)
    .take(limit)
    .getManyAndCount();
  return { rows, total, page, limit };
}

/** Counts the rows `qb` matches for ListTotals: bounded on the event loop, in full off it on SQLite. */
export function counterOf<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): TotalCounter {
  return { upTo: (limit) => countUpTo(qb, limit), all: () => OffLoopReads.for(qb.connection).count(qb) };
}

/** Pages from this offset on are read from a mark when there is one. */
const MARKED_FROM_OFFSET = 1_000;

/** How many rows `qb` matches, counting no further than `limit` (one index range of at most `limit` entries). */
export async function countUpTo<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, limit: number): Promise<number> {
  const [sql, parameters] = qb
    .clone()
    .select('1', 'one')
    .orderBy()
    .offset(undefined)
    .skip(undefined)
    .take(undefined)
    .limit(limit)
    .getQueryAndParameters();
  const rows: Array<{ n: number | string }> = await qb.connection.query(`SELECT COUNT(*) AS n FROM (${sql}) counted`, parameters);
  return Number(rows[0]?.n ?? 0);
}

/** The page's ids first, off an index serving the order (index entries only, so a deep page stays cheap), then its rows by id. */
export async function readPageByIds<T extends ObjectLiteral, R extends { id: number }>(
  qb: SelectQueryBuilder<T>,
  request: PageRequest,
  sort: PageSort,
  /** `count`: the rows in a form the count reads by index ranges; `known`: a total the owner keeps anyway (its stats). */
  totals: { cache: ListTotals; key: string; count?: SelectQueryBuilder<T>; known?: number },
  load: (ids: number[]) => Promise<R[]>,
): Promise<Page<R>> {
  const page = request.page ?? 1;
  const limit = request.limit ?? sort.defaultLimit ?? 25;
  const offset = (page - 1) * limit;
  const direction = (request.order ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
  const ids = qb.clone().select(sort.id, 'id');
  for (const column of typeof sort.by === 'string' ? [sort.by] : sort.by) ids.addOrderBy(column, direction);
  if (!sort.unique) ids.addOrderBy(sort.id, direction);
  const readIds = (mark?: PageMark) =>
    (mark ? fromMark(ids.clone(), sort, direction, mark) : ids)
      .offset(offset - (mark?.offset ?? 0))
      .limit(limit)
      .getRawMany<{ id: number | string }>();

  const marked = typeof sort.by === 'string' && !!sort.fixed?.includes(sort.by) && offset >= MARKED_FROM_OFFSET;
  const markKey = `${totals.key}|${String(sort.by)}|${direction}`;
  const since = totals.cache.since;
  const mark = marked ? totals.cache.markBefore(markKey, offset) : undefined;
  const [read, total] = await Promise.all([readIds(mark), totals.known ?? totals.cache.total(totals.key, counterOf(totals.count ?? qb))]);
  let found = read;
  if (mark && found.length < limit) {
    // Short of a full page: the list's end, or the marked row is gone (deleted elsewhere). Count off to be sure.
    totals.cache.forgetMarks(markKey);
    found = await readIds();
  }
  if (marked && found.length) totals.cache.mark(markKey, offset, Number(found[0].id), since);
  const order = found.map((row) => Number(row.id));
  const byId = new Map((order.length ? await load(order) : []).map((row) => [row.id, row]));
  return { rows: order.map((id) => byId.get(id)).filter((row): row is R => row !== undefined), total, page, limit };
}

/**
 * On MariaDB two ranges of the column's index (entries end with the id), so rows sharing the marked value (imports often share a
 * creation time) are not read from the top of the value to reach the mark; SQLite reads it as one range either way.
 */
function fromMark<T extends ObjectLiteral>(ids: SelectQueryBuilder<T>, sort: PageSort, direction: 'ASC' | 'DESC', mark: PageMark) {
  const column = sort.by as string;
  const metadata = ids.expressionMap.mainAlias!.metadata;
  const field = column.slice(column.indexOf('.') + 1);
  const markValue = `(SELECT pm.${field} FROM ${ids.connection.driver.escape(metadata.tableName)} pm WHERE pm.id = :pageMarkId)`;
  const [reach, past] = direction === 'DESC' ? ['<=', '<'] : ['>=', '>'];
  const condition = sort.unique
    ? `${column} ${reach} ${markValue}`
    : engineOf(ids) === 'mysql'
      ? `((${column} = ${markValue} AND ${sort.id} ${reach} :pageMarkId) OR ${column} ${past} ${markValue})`
      : `${column} ${reach} ${markValue} AND (${column} ${past} ${markValue} OR ${sort.id} ${reach} :pageMarkId)`;
  return ids.andWhere(condition, { pageMarkId: mark.id });
}

/** `LIKE 'term%'` (wildcards escaped): a prefix search an index on the column serves. */
export function prefixPattern(search: string): string {
  return `${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** A range on SQLite, whose case-insensitive LIKE never uses a BINARY index: pass the term in the case the column stores. */
export function startsWith(engine: 'sqlite' | 'mysql', column: string, name: string, term: string): [string, Record<string, string>] {
  if (engine === 'mysql') return [`${column} LIKE :${name} ESCAPE '!'`, { [name]: prefixPattern(term) }];
  return [`(${column} >= :${name}_from AND ${column} < :${name}_to)`, { [`${name}_from`]: term, [`${name}_to`]: `${term}\u{10FFFF}` }];
}

export function engineOf(qb: SelectQueryBuilder<ObjectLiteral>): 'sqlite' | 'mysql' {
  return qb.connection.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
}
