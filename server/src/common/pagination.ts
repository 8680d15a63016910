import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { OffLoopReads } from '../database/off-loop-reads';
import { RecentValues } from './recent-values';
import { PageMetaDto, SortOrder } from './list-query.dto';

export function pageMeta(total: number, page: number, limit: number): PageMetaDto {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

/** Escapes LIKE wildcards so a search for `50%` finds "50%", not everything ('!' escapes alike on SQLite and MySQL). */
export function likePattern(search: string): string {
  return `%${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Adds `(a LIKE :q OR b LIKE :q ...)` for a trimmed, non-empty search. */
export function whereSearch<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, columns: string[], search?: string): SelectQueryBuilder<T> {
  const term = search?.trim();
  if (!term) return qb;
  return qb.andWhere(
    new Brackets((where) => {
      for (const column of columns) where.orWhere(`${column} LIKE :search ESCAPE '!'`, { search: likePattern(term) });
    }),
  );
}

/** One page of a list: its rows, the rows matching in all, and where the page is. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  limit: number;
}

export interface PageRequest {
  page?: number;
  limit?: number;
  order?: SortOrder;
}

export interface PageSort {
  /** The column(s) to sort by, in the requested direction (descending unless asked). */
  by: string | readonly string[];
  /** The id column, sorted last in the same direction, so rows with equal sort values keep one order across pages. */
  id: string;
  /** Rows per page unless the request says (25 unless a list says otherwise). */
  defaultLimit?: number;
  /** The sort column is unique: no id after it (MariaDB would sort every row for `unique_column, id`). */
  unique?: boolean;
  /**
   * Columns whose value never changes once a row is written (creation times): sorted by one of them, a deep page
   * starts from a row an earlier read of the list found (ListTotals' page marks) instead of counting off every row
   * before it.
   */
  fixed?: readonly string[];
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

/** The column of a requested sort key, or of the default key when none (or an unknown one) is asked for. */
export function sortColumn<K extends string, C>(columns: Record<K, C>, key: string | undefined, fallback: K): C {
  return Object.prototype.hasOwnProperty.call(columns, key ?? '') ? columns[key as K] : columns[fallback];
}

/** Rows counted exactly at most; a list matching more answers with a total kept by ListTotals (see there). */
export const EXACT_TOTAL_CAP = 10_000;

/**
 * Totals of large lists. Counting a million rows takes longer than a page should (a count visits every matching
 * index entry), so a list counts at most EXACT_TOTAL_CAP + 1 matching rows; when there are more, the exact count
 * runs in the background and its result is served for `freshMs` (then refreshed in the background again, while the
 * previous one is still served). Until the first exact count is in, the answer is EXACT_TOTAL_CAP + 1: an estimate,
 * as the list DTOs say. `clear()` after this process writes the list's table, so its own changes show at once.
 */
export class ListTotals {
  private readonly kept: RecentValues<number>;
  private readonly running = new Set<string>();
  /** Per list, sort and direction: rows found at deep offsets (see PageMark). */
  private readonly marks = new Map<string, PageMark[]>();
  /** Bumped by clear(), so a count that started before a write is not kept after it. */
  private generation = 0;

  constructor(
    private readonly freshMs = 60_000,
    private readonly size = 64,
    /**
     * How long an exact total (EXACT_TOTAL_CAP or fewer rows) is kept: 0, counted on every call, unless every write
     * that a list's filters and search see goes through its owner (which calls clear()); then briefly, so paging
     * through a search, or a list asked again and again, counts once (another instance's writes show within it).
     */
    private readonly exactFreshMs = 0,
  ) {
    this.kept = new RecentValues(size);
  }

  clear(): void {
    this.kept.clear();
    this.marks.clear();
    this.generation++;
  }

  /** What a later `mark` passes back, so a read that began before a write marks nothing after it. */
  get since(): number {
    return this.generation;
  }

  /** The fresh mark nearest before `offset` (at most PAGE_MARK_FRESH_MS old) in list `key`. */
  markBefore(key: string, offset: number): PageMark | undefined {
    const now = Date.now();
    let best: PageMark | undefined;
    for (const mark of this.marks.get(key) ?? []) {
      if (mark.offset <= offset && now - mark.at < PAGE_MARK_FRESH_MS && (!best || mark.offset > best.offset)) best = mark;
    }
    return best;
  }

  /** Notes that the row `id` is at `offset` of list `key` (unless the list was written since `since`). */
  mark(key: string, offset: number, id: number, since: number): void {
    if (since !== this.generation) return;
    const marks = (this.marks.get(key) ?? []).filter((mark) => mark.offset !== offset);
    marks.push({ offset, id, at: Date.now() });
    this.marks.delete(key);
    this.marks.set(key, marks.slice(-PAGE_MARKS_PER_LIST));
    if (this.marks.size > this.size) this.marks.delete(this.marks.keys().next().value!);
  }

  /** Drops the marks of list `key` (one no longer leads to its row). */
  forgetMarks(key: string): void {
    this.marks.delete(key);
  }

  /** The total of the rows `qb` matches (its order, limit and offset ignored); `key` names the filters. */
  async total<T extends ObjectLiteral>(key: string, qb: SelectQueryBuilder<T>): Promise<number> {
    const kept = this.kept.get(key);
    if (kept !== undefined && this.kept.get(key, kept <= EXACT_TOTAL_CAP ? this.exactFreshMs : this.freshMs) !== undefined) return kept;
    const generation = this.generation;
    const bounded = await countUpTo(qb, EXACT_TOTAL_CAP + 1);
    if (bounded <= EXACT_TOTAL_CAP) {
      if (this.exactFreshMs) this.keep(key, bounded, generation);
      return bounded;
    }
    this.refresh(key, qb);
    return kept !== undefined && kept > EXACT_TOTAL_CAP ? kept : bounded;
  }

  /** Keeps a total counted for `key`, unless the list was written since the count began. */
  private keep(key: string, value: number, generation: number): void {
    if (generation === this.generation) this.kept.set(key, value);
  }

  private refresh<T extends ObjectLiteral>(key: string, qb: SelectQueryBuilder<T>): void {
    if (this.running.has(key)) return;
    this.running.add(key);
    const generation = this.generation;
    // Off the event loop on SQLite: an exact count of a million rows takes seconds there.
    OffLoopReads.for(qb.connection)
      .count(qb)
      .then((value) => this.keep(key, value, generation))
      .catch(() => undefined)
      .finally(() => this.running.delete(key));
  }
}

/**
 * A row found at `offset` of a list in a fixed-column order (PageSort.fixed). A later read of a page at or beyond it
 * seeks to that row's sort value on the index and counts off only the rows between, instead of every row before
 * the page. Rows written since by another instance shift such a page by as many rows, for PAGE_MARK_FRESH_MS at most
 * (this instance's own writes drop its marks: ListTotals.clear); a mark whose row is gone is noticed and dropped.
 */
interface PageMark {
  offset: number;
  id: number;
  at: number;
}
/** Pages from this offset on are read from a mark when there is one. */
const MARKED_FROM_OFFSET = 1_000;
const PAGE_MARK_FRESH_MS = 30_000;
const PAGE_MARKS_PER_LIST = 16;

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

/**
 * One page of a list, read in two steps: the ids of the page's rows (ORDER BY … LIMIT … OFFSET over an index that
 * serves the order, reading index entries only, so even a deep page stays cheap), then those rows by id (`load`,
 * with whatever relations the list shows). The total comes from `totals` (bounded, see ListTotals).
 */
export async function readPageByIds<T extends ObjectLiteral, R extends { id: number }>(
  qb: SelectQueryBuilder<T>,
  request: PageRequest,
  sort: PageSort,
  /**
   * `count`: the same rows in a form the count reads by index ranges, when the page's form is meant for its order;
   * `known`: the total from figures the list's owner keeps anyway (its stats), instead of a count.
   */
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
  const [read, total] = await Promise.all([readIds(mark), totals.known ?? totals.cache.total(totals.key, totals.count ?? qb)]);
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
 * The rows from `mark`'s row on, in the list's order: the sort column at or past the marked row's value (read by its
 * id, a primary-key lookup), and past equal values by id. One index range, so the page's offset counts from the mark.
 */
function fromMark<T extends ObjectLiteral>(ids: SelectQueryBuilder<T>, sort: PageSort, direction: 'ASC' | 'DESC', mark: PageMark) {
  const column = sort.by as string;
  const metadata = ids.expressionMap.mainAlias!.metadata;
  const field = column.slice(column.indexOf('.') + 1);
  const markValue = `(SELECT pm.${field} FROM ${ids.connection.driver.escape(metadata.tableName)} pm WHERE pm.id = :pageMarkId)`;
  const [reach, past] = direction === 'DESC' ? ['<=', '<'] : ['>=', '>'];
  const condition = sort.unique
    ? `${column} ${reach} ${markValue}`
    : `${column} ${reach} ${markValue} AND (${column} ${past} ${markValue} OR ${sort.id} ${reach} :pageMarkId)`;
  return ids.andWhere(condition, { pageMarkId: mark.id });
}

/** `LIKE 'term%'` (wildcards escaped): a prefix search an index on the column serves. */
export function prefixPattern(search: string): string {
  return `${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/**
 * A condition that `column` starts with `term`, in a form the column's index serves on either engine: LIKE 'term%'
 * on MySQL (its case-insensitive collation compares by index), a range on SQLite (whose LIKE is case-insensitive and
 * so never uses a BINARY index). On SQLite the match is case-sensitive: give the term in the case the column stores.
 */
export function startsWith(engine: 'sqlite' | 'mysql', column: string, name: string, term: string): [string, Record<string, string>] {
  if (engine === 'mysql') return [`${column} LIKE :${name} ESCAPE '!'`, { [name]: prefixPattern(term) }];
  return [`(${column} >= :${name}_from AND ${column} < :${name}_to)`, { [`${name}_from`]: term, [`${name}_to`]: `${term}\u{10FFFF}` }];
}

export function engineOf(qb: SelectQueryBuilder<ObjectLiteral>): 'sqlite' | 'mysql' {
  return qb.connection.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
}

/**
 * Figures that aggregate a large table (a list's stats), kept for `freshMs`: a call within it gets the kept figure;
 * a later one gets it still while a recount runs in the background; only the first call (or the first after
 * clear(), which the owner of the table calls on each write) waits for the count.
 */
export class KeptFigures {
  private readonly kept = new Map<string, { value: unknown; at: number }>();
  private readonly running = new Map<string, Promise<unknown>>();
  private generation = 0;

  constructor(private readonly freshMs = 60_000) {}

  clear(): void {
    this.kept.clear();
    this.generation++;
  }

  /** The kept figure, however old, without counting (undefined until the first count is in). */
  peek<T>(key: string): T | undefined {
    return this.kept.get(key)?.value as T | undefined;
  }

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const kept = this.kept.get(key);
    if (kept && Date.now() - kept.at < this.freshMs) return Promise.resolve(kept.value as T);
    const running = this.running.get(key) ?? this.start(key, compute);
    return kept ? Promise.resolve(kept.value as T) : (running as Promise<T>);
  }

  private start<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const generation = this.generation;
    const computation = compute()
      .then((value) => {
        if (generation === this.generation) this.kept.set(key, { value, at: Date.now() });
        return value;
      })
      .finally(() => this.running.delete(key));
    // A background recount that fails leaves the kept figure in place (the next call tries again).
    computation.catch(() => undefined);
    this.running.set(key, computation);
    return computation;
  }
}
