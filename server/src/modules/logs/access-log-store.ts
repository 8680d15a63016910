import { RecentValues } from '../../common/recent-values';
import { Param, PreparedSql, SqlStatement } from '../../database/prepared-sql';
import type { AccessLogRow } from './access-log.entity';
import { EncodedSegment, encodeSegments, NewAccessLogRow, SegmentRows, TERM_KIND } from './access-log-segments';
import { Condition, COUNT_CAP, ESTIMATE_MARGIN, KeptCounts, LogFilters, LogPage, startsWith, WINDOW_MAX, WINDOW_MIN } from './log-listing';

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
  /** Matching rows it holds at least (the most any one kind of term matches; 0 where unknown). */
  atLeast: number;
}

/** What one request has read (a page and its count read the same heads, and may open the same segments). */
interface Reads {
  /** Segments opened, parsed (null: gone since their head was read). */
  bodies: Map<number, Promise<SegmentRows | null>>;
  /** Reads of heads, by statement and parameters. */
  heads: Map<string, Promise<Array<Record<string, unknown>>>>;
  /** Each segment is read once (an export): it is let go once handed out, so memory stays flat. */
  once?: boolean;
}
const newReads = (once = false): Reads => ({ bodies: new Map(), heads: new Map(), once });

/**
 * The tests of a segment's rows: `passes`, the date and level filters (`filtered`: there are some); `matched`, the
 * places in order of the rows matching the user filter and the search (a path, route, address or e-mail starting
 * with the term, or its status), found by the segment for all its rows at once (null: every row, no search).
 */
interface RowTests {
  passes: (place: number) => boolean;
  filtered: boolean;
  matched: readonly number[] | null;
}

/**
 * The places of the segment's rows passing `tests` (the filters and the search), in the list's order, handed to
 * `visit` until it answers true. A search visits only its matches, not every row of the segment.
 */
function eachMatch(segment: SegmentRows, tests: RowTests, descending: boolean, visit: (place: number) => boolean): void {
  const { passes, matched } = tests;
  const count = matched === null ? segment.length : matched.length;
  const [first, end, step] = descending ? [count - 1, -1, -1] : [0, count, 1];
  for (let i = first; i !== end; i += step) {
    const place = matched === null ? i : matched[i];
    if (passes(place) && visit(place)) return;
  }
}

/** How many of the segment's rows pass `tests`: without a date or level filter, a search's matches as found. */
function countMatches(segment: SegmentRows, tests: RowTests): number {
  if (!tests.filtered) return tests.matched?.length ?? segment.length;
  let counted = 0;
  eachMatch(segment, tests, false, () => {
    counted++;
    return false;
  });
  return counted;
}

/**
 * The segments a list reads, in its order, a read of heads at a time (a new walk each call); `atLeast`: matching
 * rows they hold at least, where known before the walk.
 */
type Segments = (() => AsyncIterable<Candidate[]>) & { atLeast?: number };

interface Lookup {
  prefixes: string[];
  exact: string[];
}

/** Parsed segments kept (at most 2,000 rows each). */
const PARSED_KEPT = 128;
/** A segment holding fewer rows than this takes the next rows of the process that wrote it (see `write`). */
const OPEN_BELOW = 500;
const TERM_COLUMNS = ['n', 'value', 'hits', 'errors', 'warnings'];

/** The segment this process wrote last, with its rows, while more rows may be appended to it. */
export interface OpenSegment {
  id: number;
  rows: NewAccessLogRow[];
}

/** A segment's terms as rows of TERM_COLUMNS. */
function termRows(segment: EncodedSegment): Param[][] {
  const rows: Param[][] = [];
  for (const [value, { hits, errors, warnings }] of segment.terms) rows.push([rows.length, value, hits, errors, warnings]);
  return rows;
}

/** Segment heads read at a time, walking a log: few first (a first page and its count need a few), then more. */
const FIRST_HEADS = 32;
const HEADS_PER_READ = 256;
/** Segments whose rows are read in one statement at most (1, then 2, 4 and 8 as a walk goes on). */
const BODIES_PER_READ = 8;
/**
 * Term entries a search reads, first few (each costs the process about 1.5 µs), then more: enough to tell a common
 * term (a path in every segment: 200 segments hold more matches than a list counts), else up to TERM_ENTRIES_MAX.
 */
const TERM_ENTRIES_READS = [200, 1_000, 5_000];
/**
 * Term entries a search reads at most to find its segments. More, and the term is common (a path prefix covering
 * thousands of paths): its rows are found by reading segments in order instead, where they are frequent.
 */
const TERM_ENTRIES_MAX = TERM_ENTRIES_READS[TERM_ENTRIES_READS.length - 1];
/**
 * A status search sums the status's rows in this many of the newest segments holding it (1-2 ms in MariaDB): a
 * status common enough to be searched for passes COUNT_CAP there, without its entries being read.
 */
const STATUS_PROBE_ENTRIES = 1_000;
/** A common term of at most this many distinct values is looked up by value, segment by segment (see fewValues). */
const FEW_VALUES = 8;
/** Rows per export batch. */
const EXPORT_BATCH = 1_000;

type LevelCounts = Pick<Head, 'row_count' | 'errors' | 'warnings'>;

/**
 * Per level: `sql`, the heads of segments that may hold such rows; `count`, their rows by a head's (or a term's)
 * counts; `termRows`, that count as SQL over a term's columns; `test`, a row's status.
 */
const LEVELS: Record<string, { sql: string; count: (counts: LevelCounts) => number; termRows: string; test: (status: number) => boolean }> =
  {
    error: { sql: 'errors > 0', count: (h) => h.errors, termRows: 'errors', test: (s) => s >= 500 },
    warning: { sql: 'warnings > 0', count: (h) => h.warnings, termRows: 'warnings', test: (s) => s >= 400 && s < 500 },
    info: {
      sql: 'errors + warnings < row_count',
      count: (h) => h.row_count - h.errors - h.warnings,
      termRows: 'hits - errors - warnings',
      test: (s) => s < 400,
    },
    debug: { sql: '1 = 0', count: () => 0, termRows: '0', test: () => false },
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

  /** What its count depends on: the filters but the order and the page. */
  countKey(): string {
    const { level, from, to } = this.filters;
    return JSON.stringify([this.term, this.user, level ?? null, from?.getTime() ?? null, to?.getTime() ?? null]);
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

  /** The tests of a segment's rows (see RowTests). */
  rowTests(segment: SegmentRows): RowTests {
    const from = this.filters.from?.getTime();
    const to = this.filters.to?.getTime();
    const level = this.level;
    const filtered = from !== undefined || to !== undefined || level !== null;
    const passes = !filtered
      ? () => true
      : (place: number) => {
          if (from !== undefined || to !== undefined) {
            const at = segment.time(place);
            if ((from !== undefined && at < from) || (to !== undefined && at > to)) return false;
          }
          return !level || level.test(segment.status(place));
        };
    const matched = this.term === null && this.user === null ? null : (segment.matching(this.term, this.status, this.user) ?? []);
    return { passes, filtered, matched };
  }

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

  /** A term's rows passing the level filter, as SQL over its columns (levelCount's). */
  termRowsSql(): string {
    return this.level ? this.level.termRows : 'hits';
  }

  /** Of rows counted so (all, 5xx, 4xx), those passing the level filter. */
  levelCount(rows: number, errors: number, warnings: number): number {
    return this.level ? this.level.count({ row_count: rows, errors, warnings }) : rows;
  }

  /**
   * A segment's count from its term entries is exact: one lookup matching through one kind of term, and no date
   * filter cutting through the segment (the level is counted in the terms).
   */
  hitsAreExact(head: Head, kinds: number): boolean {
    const { from, to } = this.filters;
    const whole = (!from || head.first_at >= from) && (!to || head.last_at <= to);
    return kinds === 1 && (this.term === null || this.user === null) && whole;
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
  /**
   * Segments read lately, parsed, by id, row count and first time (a segment appended to is another): the lists
   * of an open System Logs screen read the newest ones every 30 s, and a search the same ones again.
   */
  private readonly parsed = new RecentValues<SegmentRows>(PARSED_KEPT);
  /** Counts past COUNT_CAP, by their filters but the order and the page (see KeptCounts), as the other logs keep. */
  private readonly counts = new KeptCounts();

  constructor(private readonly sql: PreparedSql) {}

  /**
   * Stores the rows, in one transaction: appended to `open` (the segment this process wrote last, while it holds
   * fewer than OPEN_BELOW rows: rewritten with them), else in new segments. Resolves to the segment to append the
   * next rows to. So a quiet portal, whose writer stores a few rows a second, still fills segments of hundreds of
   * rows rather than leaving one per second: a list then reads few of them.
   */
  async write(rows: NewAccessLogRow[], open: OpenSegment | null): Promise<OpenSegment | null> {
    if (open && open.rows.length + rows.length < OPEN_BELOW) {
      const merged = open.rows.concat(rows);
      const segments = encodeSegments(merged);
      if (segments.length === 1) {
        await this.sql.atomically(this.replacing(open.id, segments[0]));
        return { id: open.id, rows: merged };
      }
    }
    const segments = encodeSegments(rows);
    const statements = this.inserting(segments);
    const ids = await this.sql.atomicallyWithIds(statements.map(({ statement }) => statement));
    const last = segments[segments.length - 1];
    if (last.row_count >= OPEN_BELOW) return null;
    const id = ids[statements.findLastIndex(({ segment }) => segment === last)];
    return { id, rows: rows.slice(rows.length - last.row_count) };
  }

  /** The statements that store the rows in new segments, with their terms, to run in one transaction. */
  statements(rows: NewAccessLogRow[]): SqlStatement[] {
    return this.inserting(encodeSegments(rows)).map(({ statement }) => statement);
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

  /** The segment `id` replaced by `segment` (its rows and more), terms and all. */
  private replacing(id: number, segment: EncodedSegment): SqlStatement[] {
    return [
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
    ];
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

    // Segments the page's rows and its count both read are read and parsed once.
    const reads = newReads();
    const countKey = query.countKey();
    const knownCapped = this.counts.known(countKey);
    const counting = (count: () => Promise<number>) => this.counts.count(countKey, count);
    if (!query.term && !query.user) {
      const [rows, counted] = await Promise.all([
        this.collect(this.walk(query, reads), query, offset, limit, reads),
        counting(() => this.countUpTo(this.walk(query, reads), query, COUNT_CAP + 1, reads)),
      ]);
      return result(rows, counted);
    }

    // 1. The newest entries passing the filters, each tested: a common term fills its page here.
    const need = offset + limit;
    const window = await this.window(query, Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, need * 20)), need, reads);
    if (window.complete) return result(window.matches.slice(offset, need), window.hits);
    if (window.hits >= need) {
      const rows = window.matches.slice(offset, need);
      const counted = await counting(async () => {
        // With no filter but the search, the total is estimated from the term's share of the window.
        const unfiltered = !query.user && query.segmentWhere().params.length === 0 && !filters.level;
        const bound = Math.ceil((ESTIMATE_MARGIN * COUNT_CAP * window.read) / window.hits);
        if (unfiltered && (await this.countUpTo(this.walk(query, reads), query, bound + 1, reads, true)) > bound) return COUNT_CAP + 1;
        return this.countUpTo(await this.matching(query, reads), query, COUNT_CAP + 1, reads);
      });
      return result(rows, counted);
    }

    // 2. A rarer term: the segments its terms point to.
    const segments = await this.matching(query, reads, knownCapped);
    const [rows, counted] = await Promise.all([
      this.collect(segments, query, offset, limit, reads),
      counting(() => this.countUpTo(segments, query, COUNT_CAP + 1, reads)),
    ]);
    return result(rows, counted);
  }

  /** Every matching row, oldest first, in batches (for exports): one segment's rows in memory at a time. */
  async *batches(filters: LogFilters): AsyncGenerator<AccessLogRow[]> {
    const query = new Query({ ...filters, order: 'asc' });
    const reads = newReads(true);
    const segments = query.term || query.user ? await this.matching(query, reads) : this.walk(query, reads);
    let batch: AccessLogRow[] = [];
    for await (const segment of this.opened(segments, () => true, reads)) {
      eachMatch(segment, query.rowTests(segment), false, (place) => {
        batch.push(segment.row(place));
        return false;
      });
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
      // Counts made before are forgotten once the rows have gone (one made meanwhile may count them).
      this.counts.forget();
      removed += old.reduce((sum, segment) => sum + Number(segment.row_count), 0);
      if (old.length < batch) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async clear(): Promise<void> {
    this.parsed.clear();
    const statements = [TERMS, SEGMENTS].map((table) => ({
      sql: this.sql.engine === 'mysql' ? `TRUNCATE TABLE ${this.sql.quote(table)}` : `DELETE FROM ${this.sql.quote(table)}`,
      params: [],
    }));
    // TRUNCATE commits by itself on MySQL: one after the other there.
    if (this.sql.engine === 'mysql') for (const statement of statements) await this.sql.run(statement.sql, []);
    else await this.sql.atomically(statements);
    this.counts.forget();
  }

  /**
   * Every segment passing the date and level filters, in the list's order, a read of heads at a time, with its
   * count of matching rows where the head tells it.
   */
  private walk(query: Query, reads?: Reads, holding?: (first: number, last: number) => Promise<Set<number>>): Segments {
    const where = query.segmentWhere();
    const [direction, after] = query.descending ? ['DESC', '<'] : ['ASC', '>'];
    const sql = this.sql;
    return async function* () {
      let last: number | null = null;
      for (let size = FIRST_HEADS; ; size = HEADS_PER_READ) {
        const statement: string =
          `SELECT ${HEAD_COLUMNS} FROM ${sql.quote(SEGMENTS)} WHERE ${where.sql}${last === null ? '' : ` AND id ${after} ?`} ` +
          `ORDER BY id ${direction} LIMIT ${size}`;
        const params = last === null ? where.params : [...where.params, last];
        const heads: Array<Record<string, unknown>> = await cachedRead(sql, reads, statement, params);
        if (heads.length) {
          const chunk = heads.map((row) => readHead(sql, row));
          const ids = chunk.map((head) => head.id);
          const held = holding ? await holding(Math.min(...ids), Math.max(...ids)) : null;
          yield chunk.map((head) => {
            // A segment without the term holds no match.
            if (held && !held.has(head.id)) return { head, exact: 0, atLeast: 0 };
            const exact = query.term || query.user ? null : query.exactWithoutSearch(head);
            return { head, exact, atLeast: exact ?? 0 };
          });
          last = chunk[chunk.length - 1].id;
        }
        if (heads.length < size) return;
      }
    };
  }

  /**
   * The segments the search's and the user filter's terms point to (those both point to when both are given),
   * that pass the date and level filters, in the list's order. A term with more than TERM_ENTRIES_MAX entries is
   * common: then every segment passing the filters is a candidate (`walk`), its rows tested.
   */
  private async matching(query: Query, reads?: Reads, knownCapped = false): Promise<Segments> {
    // Per segment, the rows each kind of term matches (those passing the level filter, where one is given).
    let found: Map<number, Map<string, number>> | null = null;
    const lookups = query.lookups();
    for (const lookup of lookups) {
      const conditions = [
        ...lookup.prefixes.map((prefix) => this.prefix('value', prefix)),
        ...lookup.exact.map((value) => ({ sql: 'value = ?', params: [value] as Param[] })),
      ];
      // Exactly as the rows' test compares (MySQL's collation also lets accents and the like through).
      const wanted = (value: string) => lookup.exact.includes(value) || lookup.prefixes.some((prefix) => value.startsWith(prefix));
      const where = `WHERE (${conditions.map((c) => `(${c.sql})`).join(' OR ')})`;
      const params = conditions.flatMap((c) => c.params);
      const read = (limit: number) =>
        this.sql.all<{ id: number; value: string; hits: number; errors: number; warnings: number }>(
          `SELECT segment_id AS id, value, hits, errors, warnings FROM ${this.sql.quote(TERMS)} ${where} LIMIT ${limit + 1}`,
          params,
        );
      // Matching rows are counted from terms where nothing else is asked.
      const countable = lookups.length === 1 && !query.filters.from && !query.filters.to;
      // A status search: whether a path, route, address or e-mail starts with its digits too, and its rows in the
      // newest segments holding it (not summed where its count is known to be past the cap).
      const status = lookup.exact.length
        ? await this.statusProbe(query, lookup.exact, conditions.slice(0, lookup.prefixes.length), !(knownCapped && countable))
        : null;
      // Of the segments from `first` to `last`, those with the status, read as ranges of the terms' index (where no
      // prefix has entries: a range of values allows no such read). A status found in every segment may be missing
      // from long stretches of the newest ones (a busy portal's validate calls, all answered 200): those are skipped
      // unread.
      const holding = status && !status.prefixed ? this.holding(lookup.exact, reads) : undefined;
      if (holding && countable && status && status.newest > COUNT_CAP) {
        // Its newest segments alone hold more matches than a list counts: its rows are found by walking them.
        const walk: Segments = this.walk(query, reads, holding);
        walk.atLeast = status.newest;
        return walk;
      }
      const tally = (entries: Array<{ id: number; value: string; hits: number; errors: number; warnings: number }>) => {
        const segments = new Map<number, Map<string, number>>();
        for (const entry of entries) {
          if (!wanted(entry.value)) continue;
          const id = Number(entry.id);
          if (found && !found.has(id)) continue;
          const rows = query.levelCount(Number(entry.hits), Number(entry.errors), Number(entry.warnings));
          // A term none of whose rows has the level asked for: no row matches through it.
          if (!rows) continue;
          const kinds = segments.get(id) ?? new Map<string, number>();
          kinds.set(entry.value[0], (kinds.get(entry.value[0]) ?? 0) + rows);
          segments.set(id, kinds);
        }
        return segments;
      };
      // Matching rows the segments of the entries read hold at least (known where nothing else is asked).
      const atLeast = (segments: Map<number, Map<string, number>>) =>
        countable ? [...segments.values()].reduce((sum, kinds) => sum + Math.max(...kinds.values()), 0) : undefined;
      // More entries each time, while those read already hold fewer matches than a list counts.
      let segments = new Map<number, Map<string, number>>();
      for (const limit of TERM_ENTRIES_READS) {
        const entries = await read(limit);
        segments = tally(entries);
        if (entries.length <= limit) break;
        const least = atLeast(segments);
        if (limit === TERM_ENTRIES_MAX || (least ?? 0) > COUNT_CAP) {
          // A common term: its rows are found by walking the segments, where they are frequent. When it is a few
          // values found in many segments (a path every admin calls), the walk passes by the segments without them
          // unread: a busy portal's newest segments may hold none (its heartbeats, or a benchmark's own calls).
          const few = holding ? null : await this.fewValues(conditions);
          const walk: Segments = this.walk(query, reads, few ? this.holding(few, reads) : holding);
          walk.atLeast = least;
          return walk;
        }
      }
      found = segments;
    }
    const ids = [...found!.keys()].sort((a, b) => (query.descending ? b - a : a - b));
    const where = query.segmentWhere();
    const sql = this.sql;
    return async function* () {
      for (let start = 0; start < ids.length; start += HEADS_PER_READ) {
        const part = ids.slice(start, start + HEADS_PER_READ);
        const heads = await cachedRead(
          sql,
          reads,
          `SELECT ${HEAD_COLUMNS} FROM ${sql.quote(SEGMENTS)} WHERE id IN (${part.map(() => '?').join(', ')}) AND ${where.sql} ` +
            `ORDER BY id ${query.descending ? 'DESC' : 'ASC'}`,
          [...part, ...where.params],
        );
        yield heads.map((row) => {
          const head = readHead(sql, row);
          const kinds = found!.get(head.id)!;
          const counts = [...kinds.values()];
          return {
            head,
            exact: query.hitsAreExact(head, kinds.size) ? counts[0] : null,
            atLeast: query.hitsAreExact(head, 1) ? Math.max(...counts) : 0,
          };
        });
      }
    };
  }

  /**
   * Of the segments from `first` to `last`, those holding one of `values` (a status, or a common term's few values),
   * read as ranges of the terms' index.
   */
  private holding(values: string[], reads: Reads | undefined): (first: number, last: number) => Promise<Set<number>> {
    return async (first, last) => {
      const rows = await cachedRead(
        this.sql,
        reads,
        `SELECT segment_id AS id FROM ${this.sql.quote(TERMS)} WHERE value IN (${values.map(() => '?').join(', ')}) ` +
          'AND segment_id BETWEEN ? AND ?',
        [...values, first, last],
      );
      return new Set(rows.map((row) => Number(row.id)));
    };
  }

  /**
   * The distinct values the terms matching `conditions` hold, when there are at most FEW_VALUES of them (else null),
   * found one index seek at a time: a prefix matching a few values in thousands of segments costs a few seeks, one
   * matching thousands of values stops at FEW_VALUES + 1.
   */
  private async fewValues(conditions: Condition[]): Promise<string[] | null> {
    const values: string[] = [];
    for (const condition of conditions) {
      for (let after: string | null = null; ;) {
        const [next]: Array<{ value: string }> = await this.sql.all<{ value: string }>(
          `SELECT value FROM ${this.sql.quote(TERMS)} WHERE (${condition.sql})${after === null ? '' : ' AND value > ?'} ` +
            'ORDER BY value LIMIT 1',
          after === null ? condition.params : [...condition.params, after],
        );
        if (!next) break;
        if (values.push(next.value) > FEW_VALUES) return null;
        after = next.value;
      }
    }
    return values;
  }

  /**
   * For a status search: whether any path, route, address or e-mail starts with its digits (`prefixed`, from the
   * lookup's prefix conditions), and the status's rows passing the level filter in the newest STATUS_PROBE_ENTRIES
   * segments holding it (`newest`, a lower bound of its count), in one statement over the terms' index. Without
   * `sum` (its count is known to be past the cap), `newest` is said to be past it, unread.
   */
  private async statusProbe(
    query: Query,
    values: string[],
    prefixes: Condition[],
    sum: boolean,
  ): Promise<{ prefixed: boolean; newest: number }> {
    const terms = this.sql.quote(TERMS);
    const newest = sum
      ? `(SELECT SUM(n) FROM (SELECT ${query.termRowsSql()} AS n FROM ${terms} WHERE value IN (${values.map(() => '?').join(', ')}) ` +
        `ORDER BY segment_id DESC LIMIT ${STATUS_PROBE_ENTRIES}) newest)`
      : String(COUNT_CAP + 1);
    const [probe] = await this.sql.all<{ prefixed: unknown; newest: unknown }>(
      `SELECT (SELECT 1 FROM ${terms} WHERE ${prefixes.map((c) => `(${c.sql})`).join(' OR ')} LIMIT 1) AS prefixed, ${newest} AS newest`,
      [...prefixes.flatMap((c) => c.params), ...(sum ? values : [])],
    );
    return { prefixed: probe.prefixed !== null, newest: Number(probe.newest ?? 0) };
  }

  /**
   * The newest (or oldest) rows passing the filters, up to `size` of them read, each tested for the search: the
   * first `need` matches, how many rows were read and matched, and whether that was every row passing the filters.
   */
  private async window(query: Query, size: number, need: number, reads: Reads) {
    const matches: AccessLogRow[] = [];
    let read = 0;
    let hits = 0;
    for await (const segment of this.opened(this.walk(query, reads), () => true, reads)) {
      const tests = query.rowTests(segment);
      read += countMatches(segment, { ...tests, matched: null });
      hits += countMatches(segment, tests);
      if (matches.length < need) eachMatch(segment, tests, query.descending, (place) => matches.push(segment.row(place)) === need);
      if (read >= size) return { matches, read, hits, complete: false };
    }
    return { matches, read, hits, complete: true };
  }

  /** The page's rows: `offset` matching rows skipped (whole segments where their count is known), `limit` taken. */
  private async collect(segments: Segments, query: Query, offset: number, limit: number, reads: Reads): Promise<AccessLogRow[]> {
    let skip = offset;
    const rows: AccessLogRow[] = [];
    const skipped = (candidate: Candidate) => {
      if (candidate.exact === null || candidate.exact > skip) return false;
      skip -= candidate.exact;
      return true;
    };
    for await (const segment of this.opened(segments, (candidate) => !skipped(candidate), reads)) {
      const tests = query.rowTests(segment);
      // Without a date or level filter, a segment's matches are skipped at once.
      if (!tests.filtered && tests.matched && skip >= tests.matched.length) {
        skip -= tests.matched.length;
        continue;
      }
      eachMatch(segment, tests, query.descending, (place) => {
        if (skip) {
          skip--;
          return false;
        }
        return rows.push(segment.row(place)) === limit;
      });
      if (rows.length === limit) return rows;
    }
    return rows;
  }

  /**
   * Matching rows, counted up to `limit` (then the count says more): from the heads where they tell, else by
   * testing the segment's rows. `wholeRows` counts every row of each segment instead (a bound, from heads alone).
   */
  private async countUpTo(segments: Segments, query: Query, limit: number, reads: Reads, wholeRows = false): Promise<number> {
    // First from what the heads and terms tell at least (a path and its route match the same rows: neither count
    // is exact, but either may reach the limit), before opening any segment.
    if ((segments.atLeast ?? 0) >= limit) return segments.atLeast!;
    let least = 0;
    for await (const chunk of segments()) {
      for (const candidate of chunk) least += wholeRows ? candidate.head.row_count : candidate.atLeast;
      if (least >= limit) return least;
      if (!least) break;
    }
    if (wholeRows) return least;
    let counted = 0;
    const known = (candidate: Candidate) => {
      if (candidate.exact === null) return false;
      counted += candidate.exact;
      return true;
    };
    const open = (candidate: Candidate) => (counted >= limit ? 'stop' : !known(candidate));
    for await (const segment of this.opened(segments, open, reads)) {
      counted += countMatches(segment, query.rowTests(segment));
      if (counted >= limit) return counted;
    }
    return counted;
  }

  /**
   * The segments `open` says to open (it sees each in order, none with no match, and may account for the others
   * itself; 'stop' ends the walk), read and parsed. Their rows are read 1, 2, 4 then BODIES_PER_READ segments at a
   * time: a first page needs one, a walk through many reads few statements. `reads` keeps what one request has read.
   */
  private async *opened(segments: Segments, open: (candidate: Candidate) => boolean | 'stop', reads: Reads): AsyncGenerator<SegmentRows> {
    let group = 1;
    for await (const chunk of segments()) {
      const wanted = chunk.filter((candidate) => candidate.exact !== 0);
      for (let i = 0; i < wanted.length;) {
        const opening = open(wanted[i]);
        if (opening === 'stop') return;
        if (!opening) {
          i++;
          continue;
        }
        // This one and the next few: those `open` has not seen yet are opened too (asking it would account for them).
        const part = wanted.slice(i, i + group);
        i += part.length;
        group = Math.min(group * 2, BODIES_PER_READ);
        this.read(
          part.map((candidate) => candidate.head),
          reads,
        );
        for (const { head } of part) {
          const segment = await reads.bodies.get(head.id)!;
          if (reads.once) reads.bodies.delete(head.id);
          if (segment) yield segment;
        }
      }
    }
  }

  /** Reads the segments not read yet (nor kept parsed), in one statement, into `reads`. */
  private read(heads: Head[], reads: Reads): void {
    const missing: Head[] = [];
    for (const head of heads) {
      if (reads.bodies.has(head.id)) continue;
      const kept = this.parsed.get(parsedKey(head));
      if (kept) reads.bodies.set(head.id, Promise.resolve(kept));
      else missing.push(head);
    }
    if (!missing.length) return;
    type Body = { id: number; body: string; row_count: number };
    const sql = `SELECT id, body, row_count FROM ${this.sql.quote(SEGMENTS)} WHERE id IN (${missing.map(() => '?').join(', ')})`;
    const ids = missing.map((head) => head.id);
    // An export's walk through every segment reads them past the app's page cache (see PreparedSql.bulk).
    const rows = reads.once ? this.sql.bulk<Body>(sql, ids) : this.sql.all<Body>(sql, ids);
    for (const head of missing) {
      // null: the segment went since its head was read (pruned or cleared): it has no rows to show.
      const segment = rows.then((found) => {
        const row = found.find((r) => Number(r.id) === head.id);
        if (!row) return null;
        const parsed = new SegmentRows(head.id, row.body);
        // Kept only as its head was read (appended to since, it is another), and not for an export's walk through all.
        if (Number(row.row_count) === head.row_count && !reads.once) this.parsed.set(parsedKey(head), parsed);
        return parsed;
      });
      // A request that stops early never awaits the rest: their failure must not go unhandled.
      segment.catch(() => undefined);
      reads.bodies.set(head.id, segment);
    }
  }

  /**
   * `column` starts with `prefix`, read as a range of its index: LIKE on MySQL (whose column collation ignores
   * case, as the terms are lower-cased anyway), a range on SQLite (whose LIKE reads no index of a BINARY column).
   */
  private prefix(column: string, prefix: string): Condition {
    if (this.sql.engine === 'mysql') return startsWith(column, prefix);
    return { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, `${prefix}\u{10FFFF}`] };
  }
}

/** A read of segment heads, once per request (`reads`) for the same statement and parameters. */
function cachedRead(
  sql: PreparedSql,
  reads: Reads | undefined,
  statement: string,
  params: Param[],
): Promise<Array<Record<string, unknown>>> {
  if (!reads || reads.once) return sql.all<Record<string, unknown>>(statement, params);
  const key = `${statement}\u0000${JSON.stringify(params)}`;
  const read = reads.heads.get(key) ?? sql.all<Record<string, unknown>>(statement, params);
  reads.heads.set(key, read);
  return read;
}

/** What tells a segment's content apart: a segment appended to has more rows; ids start over after a clear. */
const parsedKey = (head: Head) => `${head.id}:${head.row_count}:${head.first_at.getTime()}`;

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
