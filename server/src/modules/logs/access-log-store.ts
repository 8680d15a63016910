import { Param, PreparedSql, SqlStatement } from '../../database/prepared-sql';
import type { AccessLogRow } from './access-log.entity';
import { decodeSegment, encodeSegments, NewAccessLogRow, TERM_KIND } from './access-log-segments';
import { COUNT_CAP, LogFilters, LogPage } from './log-listing';

const SEGMENTS = 'access_log_segments';
const TERMS = 'access_log_terms';
const HEAD_COLUMNS = 'id, first_at, last_at, row_count, errors, warnings';

/** A segment's columns but its rows. */
interface Head {
  id: number;
  first_at: Date;
  last_at: Date;
  row_count: number;
  errors: number;
  warnings: number;
}

/** A segment that may hold matching rows, and how many it holds where that is known without reading them. */
interface Candidate {
  head: Head;
  exact: number | null;
}

/** The segments a list reads, in its order, a read of heads at a time (a new walk each call). */
type Segments = () => AsyncIterable<Candidate[]>;

interface Lookup {
  prefixes: string[];
  exact: string[];
}

interface Condition {
  sql: string;
  params: Param[];
}

/** Segment heads read at a time, walking a log. */
const HEADS_PER_READ = 200;
/** Segments whose rows are read in one statement at most (1, then 2, 4 and 8 as a walk goes on). */
const BODIES_PER_READ = 8;
/** Rows of the newest (or oldest) entries a search first looks through, at least and at most. */
const WINDOW_MIN = 500;
const WINDOW_MAX = 20_000;
/** A total is estimated (as more than COUNT_CAP) only when the estimate is this many times the cap. */
const ESTIMATE_MARGIN = 3;
/**
 * Term entries a search reads at most to find its segments. More, and the term is common (a path prefix covering
 * thousands of paths): its rows are found by reading segments in order instead, where they are frequent.
 */
const TERM_ENTRIES_MAX = 20_000;
/** Rows per export batch. */
const EXPORT_BATCH = 1_000;

const LEVELS: Record<string, { sql: string; count: (head: Head) => number; test: (status: number) => boolean }> = {
  error: { sql: 'errors > 0', count: (h) => h.errors, test: (s) => s >= 500 },
  warning: { sql: 'warnings > 0', count: (h) => h.warnings, test: (s) => s >= 400 && s < 500 },
  info: { sql: 'errors + warnings < row_count', count: (h) => h.row_count - h.errors - h.warnings, test: (s) => s < 400 },
  debug: { sql: '1 = 0', count: () => 0, test: () => false },
};

/** The filters of a list or export, compiled: what segments may hold matches, and the test of each row. */
class Query {
  readonly term: string | null;
  readonly user: string | null;
  readonly descending: boolean;
  private readonly level: (typeof LEVELS)[string] | null;
  private readonly status: number | null;

  constructor(readonly filters: LogFilters) {
    this.term = filters.search?.trim().toLowerCase() || null;
    this.user = filters.user?.trim().toLowerCase() || null;
    this.descending = filters.order !== 'asc';
    this.level = filters.level ? LEVELS[filters.level] : null;
    this.status = this.term && /^\d{3}$/.test(this.term) ? Number(this.term) : null;
  }

  /** Segments that may hold rows passing the date and level filters. */
  segmentWhere(): Condition {
    const conditions: Condition[] = [];
    if (this.filters.from) conditions.push({ sql: 'last_at >= ?', params: [this.filters.from] });
    if (this.filters.to) conditions.push({ sql: 'first_at <= ?', params: [this.filters.to] });
    if (this.level) conditions.push({ sql: this.level.sql, params: [] });
    return conditions.length
      ? { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) }
      : { sql: '1 = 1', params: [] };
  }

  /** Rows of the segment passing the date and level filters, where its head says without its rows. */
  exactWithoutSearch(head: Head): number | null {
    const { from, to } = this.filters;
    if ((from && head.first_at < from) || (to && head.last_at > to)) return null;
    return this.level ? this.level.count(head) : head.row_count;
  }

  /** The row passes the date and level filters. */
  passesFilters(row: AccessLogRow): boolean {
    const { from, to } = this.filters;
    return (!from || row.created_at >= from) && (!to || row.created_at <= to) && (!this.level || this.level.test(row.status));
  }

  /** The row matches the user filter and the search: a path, route, address or e-mail starting with it, or its status. */
  matchesSearch(row: AccessLogRow): boolean {
    if (this.user !== null && !row.user_email?.toLowerCase().startsWith(this.user)) return false;
    const term = this.term;
    if (term === null) return true;
    return (
      row.status === this.status ||
      row.path.toLowerCase().startsWith(term) ||
      row.route.toLowerCase().startsWith(term) ||
      !!row.ip_address?.toLowerCase().startsWith(term) ||
      !!row.user_email?.toLowerCase().startsWith(term)
    );
  }

  test = (row: AccessLogRow): boolean => this.passesFilters(row) && this.matchesSearch(row);

  /**
   * The term lookups of the search and of the user filter (a segment must match both): each the terms starting
   * with one of its prefixes or equal to one of its exact values.
   */
  lookups(): Lookup[] {
    const lookups: Lookup[] = [];
    if (this.term !== null) {
      const term = this.term;
      lookups.push({
        prefixes: [TERM_KIND.path, TERM_KIND.route, TERM_KIND.ip, TERM_KIND.email].map((kind) => kind + term),
        exact: this.status === null ? [] : [TERM_KIND.status + term],
      });
    }
    if (this.user !== null) lookups.push({ prefixes: [TERM_KIND.email + this.user], exact: [] });
    return lookups;
  }

  /** A segment's count from its term entries is exact: one lookup of one kind, and no other filter to test. */
  hitsAreExact(head: Head, kinds: number): boolean {
    const { from, to } = this.filters;
    const whole = (!from || head.first_at >= from) && (!to || head.last_at <= to);
    return kinds === 1 && (this.term === null || this.user === null) && !this.level && whole;
  }
}

/**
 * The access log's rows, kept in segments (see AccessLogSegmentEntity): stored a batch at a time, listed newest
 * (or oldest) first in the order they were stored, searched through the segments' terms, exported, pruned and
 * cleared. A list reads segment heads (a few small rows) to find its page and count, and opens only the segments
 * whose rows it shows or must test. A search first looks through the newest entries, where a common term fills its
 * page; a rarer one is found through its terms. Counting stops past COUNT_CAP, as the other logs' lists do.
 */
export class AccessLogStore {
  constructor(private readonly sql: PreparedSql) {}

  /** The statements that store the rows (in segments, with their terms), to run in one transaction. */
  statements(rows: NewAccessLogRow[]): SqlStatement[] {
    // The segment's id, just generated: the connection's last on MySQL; on SQLite, whose writes are serial, the
    // highest (last_insert_rowid would be the previous term's row after the first INSERT of terms).
    const segmentId = this.sql.engine === 'mysql' ? 'LAST_INSERT_ID()' : `(SELECT MAX(id) FROM ${this.sql.quote(SEGMENTS)})`;
    const statements: SqlStatement[] = [];
    for (const segment of encodeSegments(rows)) {
      statements.push({
        sql: `INSERT INTO ${this.sql.quote(SEGMENTS)} (first_at, last_at, row_count, errors, warnings, body) VALUES (?, ?, ?, ?, ?, ?)`,
        params: [segment.first_at, segment.last_at, segment.row_count, segment.errors, segment.warnings, segment.body],
        prepared: true,
      });
      const terms: Param[][] = [];
      for (const [value, hits] of segment.terms) terms.push([terms.length, value, hits]);
      statements.push(...this.sql.insertStatements(TERMS, ['n', 'value', 'hits'], terms, { fixed: { segment_id: segmentId } }));
    }
    return statements;
  }

  async page(filters: LogFilters): Promise<LogPage<AccessLogRow>> {
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 25;
    const offset = (page - 1) * limit;
    const query = new Query(filters);
    const result = (rows: AccessLogRow[], counted: number): LogPage<AccessLogRow> => ({
      rows,
      total: Math.min(counted, COUNT_CAP),
      capped: counted > COUNT_CAP,
      page,
      limit,
    });

    if (!query.term && !query.user) {
      const [rows, counted] = await Promise.all([
        this.collect(this.walk(query), query.test, offset, limit, query.descending),
        this.countUpTo(this.walk(query), query.test, COUNT_CAP + 1),
      ]);
      return result(rows, counted);
    }

    // 1. The newest entries passing the filters, each tested: a common term fills its page here.
    const need = offset + limit;
    const window = await this.window(query, Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, need * 20)), need);
    if (window.complete) return result(window.matches.slice(offset, need), window.hits);
    if (window.hits >= need) {
      const rows = window.matches.slice(offset, need);
      // With no filter but the search, the total is estimated from the term's share of the window.
      const unfiltered = !query.user && query.segmentWhere().params.length === 0 && !filters.level;
      const bound = Math.ceil((ESTIMATE_MARGIN * COUNT_CAP * window.read) / window.hits);
      if (unfiltered && (await this.countUpTo(this.walk(query), () => true, bound + 1, true)) > bound) {
        return result(rows, COUNT_CAP + 1);
      }
      return result(rows, await this.countUpTo(await this.matching(query), query.test, COUNT_CAP + 1));
    }

    // 2. A rarer term: the segments its terms point to.
    const segments = await this.matching(query);
    const [rows, counted] = await Promise.all([
      this.collect(segments, query.test, offset, limit, query.descending),
      this.countUpTo(segments, query.test, COUNT_CAP + 1),
    ]);
    return result(rows, counted);
  }

  /** Every matching row, oldest first, in batches (for exports): one segment's rows in memory at a time. */
  async *batches(filters: LogFilters): AsyncGenerator<AccessLogRow[]> {
    const query = new Query({ ...filters, order: 'asc' });
    const segments = query.term || query.user ? await this.matching(query) : this.walk(query);
    let batch: AccessLogRow[] = [];
    for await (const { rows } of this.opened(segments, () => true)) {
      for (const row of rows) if (query.test(row)) batch.push(row);
      if (batch.length >= EXPORT_BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  /** Removes the segments whose every row is older than `before`, in batches; returns how many rows went. */
  async prune(before: Date, batch = 200): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.sql.all<{ id: number; row_count: number }>(
        `SELECT id, row_count FROM ${this.sql.quote(SEGMENTS)} WHERE last_at < ? ORDER BY last_at LIMIT ${batch}`,
        [before],
      );
      if (!old.length) return removed;
      const ids = old.map((segment) => Number(segment.id));
      const list = ids.map(() => '?').join(', ');
      await this.sql.atomically([
        { sql: `DELETE FROM ${this.sql.quote(TERMS)} WHERE segment_id IN (${list})`, params: ids },
        { sql: `DELETE FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${list})`, params: ids },
      ]);
      removed += old.reduce((sum, segment) => sum + Number(segment.row_count), 0);
      if (old.length < batch) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
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

  /**
   * Every segment passing the date and level filters, in the list's order, a read of heads at a time, with its
   * count of matching rows where the head tells it. `ascending` overrides the query's order.
   */
  private walk(query: Query): Segments {
    const where = query.segmentWhere();
    const [direction, after] = query.descending ? ['DESC', '<'] : ['ASC', '>'];
    const sql = this.sql;
    return async function* () {
      let last: number | null = null;
      for (;;) {
        const heads: Array<Record<string, unknown>> = await sql.all<Record<string, unknown>>(
          `SELECT ${HEAD_COLUMNS} FROM ${sql.quote(SEGMENTS)} WHERE ${where.sql}${last === null ? '' : ` AND id ${after} ?`} ` +
            `ORDER BY id ${direction} LIMIT ${HEADS_PER_READ}`,
          last === null ? where.params : [...where.params, last],
        );
        if (heads.length) {
          const chunk = heads.map((row) => readHead(sql, row));
          yield chunk.map((head) => ({ head, exact: query.term || query.user ? null : query.exactWithoutSearch(head) }));
          last = chunk[chunk.length - 1].id;
        }
        if (heads.length < HEADS_PER_READ) return;
      }
    };
  }

  /**
   * The segments the search's and the user filter's terms point to (those both point to when both are given),
   * that pass the date and level filters, in the list's order. A term with more than TERM_ENTRIES_MAX entries is
   * common: then every segment passing the filters is a candidate (`walk`), its rows tested.
   */
  private async matching(query: Query): Promise<Segments> {
    let found: Map<number, { kinds: Set<string>; hits: number }> | null = null;
    for (const lookup of query.lookups()) {
      const conditions = [
        ...lookup.prefixes.map((prefix) => this.prefix('value', prefix)),
        ...lookup.exact.map((value) => ({ sql: 'value = ?', params: [value] as Param[] })),
      ];
      // Exactly as the rows' test compares (MySQL's collation also lets accents and the like through).
      const wanted = (value: string) => lookup.exact.includes(value) || lookup.prefixes.some((prefix) => value.startsWith(prefix));
      const entries = await this.sql.all<{ id: number; value: string; hits: number }>(
        `SELECT segment_id AS id, value, hits FROM ${this.sql.quote(TERMS)} WHERE ${conditions.map((c) => `(${c.sql})`).join(' OR ')} ` +
          `LIMIT ${TERM_ENTRIES_MAX + 1}`,
        conditions.flatMap((c) => c.params),
      );
      if (entries.length > TERM_ENTRIES_MAX) return this.walk(query);
      const segments = new Map<number, { kinds: Set<string>; hits: number }>();
      for (const entry of entries) {
        if (!wanted(entry.value)) continue;
        const id = Number(entry.id);
        if (found && !found.has(id)) continue;
        const segment = segments.get(id) ?? { kinds: new Set<string>(), hits: 0 };
        segment.kinds.add(entry.value[0]);
        segment.hits += Number(entry.hits);
        segments.set(id, segment);
      }
      found = segments;
    }
    const ids = [...found!.keys()].sort((a, b) => (query.descending ? b - a : a - b));
    const where = query.segmentWhere();
    const sql = this.sql;
    return async function* () {
      for (let start = 0; start < ids.length; start += HEADS_PER_READ) {
        const part = ids.slice(start, start + HEADS_PER_READ);
        const heads = await sql.all<Record<string, unknown>>(
          `SELECT ${HEAD_COLUMNS} FROM ${sql.quote(SEGMENTS)} WHERE id IN (${part.map(() => '?').join(', ')}) AND ${where.sql} ` +
            `ORDER BY id ${query.descending ? 'DESC' : 'ASC'}`,
          [...part, ...where.params],
        );
        yield heads.map((row) => {
          const head = readHead(sql, row);
          const { kinds, hits } = found!.get(head.id)!;
          return { head, exact: query.hitsAreExact(head, kinds.size) ? hits : null };
        });
      }
    };
  }

  /**
   * The newest (or oldest) rows passing the filters, up to `size` of them read, each tested for the search: the
   * first `need` matches, how many rows were read and matched, and whether that was every row passing the filters.
   */
  private async window(query: Query, size: number, need: number) {
    const matches: AccessLogRow[] = [];
    let read = 0;
    let hits = 0;
    for await (const { rows } of this.opened(this.walk(query), () => true)) {
      for (const row of query.descending ? rows.reverse() : rows) {
        if (!query.passesFilters(row)) continue;
        read++;
        if (query.matchesSearch(row)) {
          hits++;
          if (matches.length < need) matches.push(row);
        }
      }
      if (read >= size) return { matches, read, hits, complete: false };
    }
    return { matches, read, hits, complete: true };
  }

  /** The page's rows: `offset` matching rows skipped (whole segments where their count is known), `limit` taken. */
  private async collect(
    segments: Segments,
    test: (row: AccessLogRow) => boolean,
    offset: number,
    limit: number,
    descending: boolean,
  ): Promise<AccessLogRow[]> {
    let skip = offset;
    const rows: AccessLogRow[] = [];
    const skipped = (candidate: Candidate) => {
      if (candidate.exact === null || candidate.exact > skip) return false;
      skip -= candidate.exact;
      return true;
    };
    for await (const opened of this.opened(segments, (candidate) => !skipped(candidate))) {
      for (const row of descending ? opened.rows.reverse() : opened.rows) {
        if (!test(row)) continue;
        if (skip) skip--;
        else if (rows.push(row) === limit) return rows;
      }
    }
    return rows;
  }

  /**
   * Matching rows, counted up to `limit` (then the count says more): from the heads where they tell, else by
   * testing the segment's rows. `wholeRows` counts every row of each segment instead (a bound, from heads alone).
   */
  private async countUpTo(segments: Segments, test: (row: AccessLogRow) => boolean, limit: number, wholeRows = false): Promise<number> {
    let counted = 0;
    const known = (candidate: Candidate) => {
      const exact = wholeRows ? candidate.head.row_count : candidate.exact;
      if (exact === null) return false;
      counted += exact;
      return true;
    };
    for await (const { rows } of this.opened(segments, (candidate) => counted < limit && !known(candidate))) {
      for (const row of rows) if (test(row)) counted++;
      if (counted >= limit) return counted;
    }
    return counted;
  }

  /**
   * The segments `open` says to open (it sees each in order, none with no match, and may account for the others
   * itself), each with its rows in the order stored. Their rows are read 1, 2, 4 then BODIES_PER_READ segments at a
   * time: a first page needs one, a walk through many reads few statements.
   */
  private async *opened(segments: Segments, open: (candidate: Candidate) => boolean): AsyncGenerator<{ head: Head; rows: AccessLogRow[] }> {
    let group = 1;
    for await (const chunk of segments()) {
      const wanted = chunk.filter((candidate) => candidate.exact !== 0);
      for (let i = 0; i < wanted.length;) {
        if (!open(wanted[i])) {
          i++;
          continue;
        }
        // This one and the next few: those `open` has not seen yet are opened too (asking it would account for them).
        const part = wanted.slice(i, i + group);
        i += part.length;
        group = Math.min(group * 2, BODIES_PER_READ);
        const bodies = await this.bodies(part.map((candidate) => candidate.head.id));
        for (const { head } of part) yield { head, rows: decodeSegment(head.id, bodies.get(head.id)!) };
      }
    }
  }

  private async bodies(ids: number[]): Promise<Map<number, string>> {
    const bodies = new Map<number, string>();
    if (!ids.length) return bodies;
    const rows = await this.sql.all<{ id: number; body: string }>(
      `SELECT id, body FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    for (const row of rows) bodies.set(Number(row.id), row.body);
    return bodies;
  }

  /**
   * `column` starts with `prefix`, read as a range of its index: LIKE on MySQL (whose column collation ignores
   * case, as the terms are lower-cased anyway), a range on SQLite (whose LIKE reads no index of a BINARY column).
   */
  private prefix(column: string, prefix: string): Condition {
    if (this.sql.engine === 'mysql') {
      return { sql: `${column} LIKE ? ESCAPE '!'`, params: [`${prefix.replace(/[!%_]/g, (c) => `!${c}`)}%`] };
    }
    return { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, `${prefix}\u{10FFFF}`] };
  }
}

function readHead(sql: PreparedSql, row: Record<string, unknown>): Head {
  return {
    id: Number(row.id),
    first_at: sql.readDate(row.first_at)!,
    last_at: sql.readDate(row.last_at)!,
    row_count: Number(row.row_count),
    errors: Number(row.errors),
    warnings: Number(row.warnings),
  };
}
