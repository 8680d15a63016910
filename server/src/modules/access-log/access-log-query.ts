import type { Cache } from '../../common/cache';
import type { AccessLogRow } from './access-log.entity';
import { COUNT_CAP } from './access-log.constants';
import { SegmentRows, TERM_KIND } from './access-log-segments';

/**
 * The access log's query planning, without the database: a list's filters compiled into what segments may hold
 * matches (SegmentFilter, TermLookup), the test of each row, and the choices a search makes from what it read.
 * The store (access-log-store.ts) runs the plan against the repositories.
 */

/** Levels by status: `count`, a segment's (or a term's) rows of the level by its counts; `test`, a row's status. */
const LEVELS = {
  error: { count: (c: LevelCounts) => c.errors, test: (s: number) => s >= 500 },
  warning: { count: (c: LevelCounts) => c.warnings, test: (s: number) => s >= 400 && s < 500 },
  info: { count: (c: LevelCounts) => c.row_count - c.errors - c.warnings, test: (s: number) => s < 400 },
  debug: { count: () => 0, test: () => false },
};
export type AccessLogLevel = keyof typeof LEVELS;

export interface AccessLogFilters {
  search?: string;
  level?: AccessLogLevel;
  from?: Date;
  to?: Date;
  /** The user's e-mail address, or its beginning. */
  user?: string;
  order?: 'asc' | 'desc';
  page?: number;
  limit?: number;
}

export interface AccessLogPage {
  rows: AccessLogRow[];
  /** Rows matching, counted up to COUNT_CAP. */
  total: number;
  /** More rows match than COUNT_CAP: `total` is a lower bound. */
  capped: boolean;
  page: number;
  limit: number;
}

/** A segment's columns but its rows. */
export interface SegmentHead {
  id: number;
  first_at: Date;
  last_at: Date;
  row_count: number;
  errors: number;
  warnings: number;
}
type LevelCounts = Pick<SegmentHead, 'row_count' | 'errors' | 'warnings'>;

/** Segments that may hold rows passing the date and level filters: those whose span and counts allow one. */
export interface SegmentFilter {
  from?: Date;
  to?: Date;
  level?: AccessLogLevel;
}

/** The terms starting with one of `prefixes` or equal to one of `exact` (each behind its kind's letter). */
export interface TermLookup {
  prefixes: string[];
  exact: string[];
}

/** A term's entry in the index: its segment, its value, and the rows with it (all, 5xx, 4xx). */
export interface TermEntry {
  id: number;
  value: string;
  hits: number;
  errors: number;
  warnings: number;
}

/** A segment that may hold matching rows, and how many it holds where that is known without reading them. */
export interface Candidate {
  head: SegmentHead;
  exact: number | null;
  /** Matching rows it holds at least (the most any one kind of term matches; 0 where unknown). */
  atLeast: number;
}

/**
 * The tests of a segment's rows: `passes`, the date and level filters (`filtered`: there are some); `matched`, the
 * places in order of the rows matching the user filter and the search (a path, route, address or e-mail starting
 * with the term, or its status), found by the segment for all its rows at once (null: every row, no search).
 */
export interface RowTests {
  passes: (place: number) => boolean;
  filtered: boolean;
  matched: readonly number[] | null;
}

/** Per segment, the rows each kind of term (its letter) matches. */
export type TermTally = Map<number, Map<string, number>>;

/** Term entries a search reads, first few (enough to tell a term in every segment), then more. */
export const TERM_ENTRIES_READS = [200, 1_000, 5_000];
/**
 * More entries than this, and the term is common (a path prefix covering thousands of paths): its rows are found by
 * reading segments in order instead, where they are frequent.
 */
export const TERM_ENTRIES_MAX = TERM_ENTRIES_READS[TERM_ENTRIES_READS.length - 1];
/**
 * A status search sums the status's rows in this many of the newest segments holding it: a status common enough
 * to be searched for passes COUNT_CAP there, without its entries being read.
 */
export const STATUS_PROBE_ENTRIES = 1_000;
/** A common term of at most this many distinct values is looked up by value, segment by segment. */
export const FEW_VALUES = 8;

/** The filters of a list or export, compiled: what segments may hold matches, and the test of each row. */
export class AccessLogQuery {
  readonly term: string | null;
  readonly user: string | null;
  readonly descending: boolean;
  /** The status a three-digit search names. */
  readonly status: number | null;
  private readonly level: (typeof LEVELS)[AccessLogLevel] | null;

  constructor(readonly filters: AccessLogFilters) {
    this.term = filters.search?.trim().toLowerCase() || null;
    this.user = filters.user?.trim().toLowerCase() || null;
    this.descending = filters.order !== 'asc';
    this.level = filters.level ? LEVELS[filters.level] : null;
    this.status = this.term && /^\d{3}$/.test(this.term) ? Number(this.term) : null;
  }

  /** A search or a user filter: rows are found through the terms. */
  get searching(): boolean {
    return this.term !== null || this.user !== null;
  }

  /** What its count depends on: the filters but the order and the page. */
  countKey(): string {
    const { level, from, to } = this.filters;
    return JSON.stringify([this.term, this.user, level ?? null, from?.getTime() ?? null, to?.getTime() ?? null]);
  }

  segmentFilter(): SegmentFilter {
    const { from, to, level } = this.filters;
    return { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(level ? { level } : {}) };
  }

  /** No filter but (perhaps) the search and the order. */
  get unfiltered(): boolean {
    return !this.user && !this.filters.from && !this.filters.to && !this.filters.level;
  }

  /** Rows of the segment passing the date and level filters, where its head says without its rows. */
  exactWithoutSearch(head: SegmentHead): number | null {
    const { from, to } = this.filters;
    if ((from && head.first_at < from) || (to && head.last_at > to)) return null;
    return this.level ? this.level.count(head) : head.row_count;
  }

  /** The segment as a walk through every segment passing the filters sees it: without the term (`held`), none. */
  candidate(head: SegmentHead, held: Set<number> | null): Candidate {
    if (held && !held.has(head.id)) return { head, exact: 0, atLeast: 0 };
    const exact = this.searching ? null : this.exactWithoutSearch(head);
    return { head, exact, atLeast: exact ?? 0 };
  }

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
    const matched = this.searching ? (segment.matching(this.term, this.status, this.user) ?? []) : null;
    return { passes, filtered, matched };
  }

  /** The term lookups of the search and of the user filter (a segment must match both). */
  lookups(): TermLookup[] {
    const lookups: TermLookup[] = [];
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

  /** Matching rows are counted from the terms where nothing else is asked (one lookup, no date filter). */
  countable(lookups: TermLookup[]): boolean {
    return lookups.length === 1 && !this.filters.from && !this.filters.to;
  }

  /** Of rows counted so (all, 5xx, 4xx), those passing the level filter. */
  levelCount(rows: number, errors: number, warnings: number): number {
    return this.level ? this.level.count({ row_count: rows, errors, warnings }) : rows;
  }

  /**
   * A segment's count from its term entries is exact: one lookup matching through one kind of term, and no date
   * filter cutting through the segment (the level is counted in the terms).
   */
  hitsAreExact(head: SegmentHead, kinds: number): boolean {
    const { from, to } = this.filters;
    const whole = (!from || head.first_at >= from) && (!to || head.last_at <= to);
    return kinds === 1 && (this.term === null || this.user === null) && whole;
  }

  /**
   * The term entries' rows per segment and kind, of the entries whose value the lookup wants exactly as the rows'
   * test compares (MySQL's collation also lets accents and the like through), in segments `within` (where given).
   * A term none of whose rows has the level asked for matches no row through it.
   */
  tally(lookup: TermLookup, entries: TermEntry[], within: TermTally | null): TermTally {
    const segments: TermTally = new Map();
    for (const entry of entries) {
      if (!lookup.exact.includes(entry.value) && !lookup.prefixes.some((prefix) => entry.value.startsWith(prefix))) continue;
      const id = Number(entry.id);
      if (within && !within.has(id)) continue;
      const rows = this.levelCount(Number(entry.hits), Number(entry.errors), Number(entry.warnings));
      if (!rows) continue;
      const kinds = segments.get(id) ?? new Map<string, number>();
      kinds.set(entry.value[0], (kinds.get(entry.value[0]) ?? 0) + rows);
      segments.set(id, kinds);
    }
    return segments;
  }

  /** The candidate a segment found through its terms is: its matches exact or at least as its tally says. */
  termCandidate(head: SegmentHead, kinds: Map<string, number>): Candidate {
    const counts = [...kinds.values()];
    return {
      head,
      exact: this.hitsAreExact(head, kinds.size) ? counts[0] : null,
      atLeast: this.hitsAreExact(head, 1) ? Math.max(...counts) : 0,
    };
  }
}

/**
 * Matching rows the tallied segments hold at least: in each, the most any one kind of term matches (a path and
 * its route match the same rows: neither count is exact, but either is a lower bound).
 */
export function leastMatches(tally: TermTally): number {
  let least = 0;
  for (const kinds of tally.values()) least += Math.max(...kinds.values());
  return least;
}

/**
 * What a search does after reading `read` term entries (up to `limit` + 1): every entry was read (`segments`: the
 * tally is every segment holding the term), or more are worth reading (`more`), or the term is common (`walk`:
 * its rows are found by reading segments in order, where they are frequent), when the entries read reach
 * TERM_ENTRIES_MAX or already hold more matches than a list counts (`least`, where the count is the terms').
 */
export function afterTermEntries(read: number, limit: number, least: number | null): 'segments' | 'more' | 'walk' {
  if (read <= limit) return 'segments';
  if (limit >= TERM_ENTRIES_MAX || (least ?? 0) > COUNT_CAP) return 'walk';
  return 'more';
}

/**
 * The places of the segment's rows passing `tests` (the filters and the search), in the list's order, handed to
 * `visit` until it returns true. A search visits only its matches, not every row of the segment.
 */
export function eachMatch(segment: SegmentRows, tests: RowTests, descending: boolean, visit: (place: number) => boolean): void {
  const { passes, matched } = tests;
  const count = matched === null ? segment.length : matched.length;
  const [first, end, step] = descending ? [count - 1, -1, -1] : [0, count, 1];
  for (let i = first; i !== end; i += step) {
    const place = matched === null ? i : matched[i];
    if (passes(place) && visit(place)) return;
  }
}

/** How many of the segment's rows pass `tests`: without a date or level filter, a search's matches as found. */
export function countMatches(segment: SegmentRows, tests: RowTests): number {
  if (!tests.filtered) return tests.matched?.length ?? segment.length;
  let counted = 0;
  eachMatch(segment, tests, false, () => {
    counted++;
    return false;
  });
  return counted;
}

/**
 * `count()`, or the count cached for `key` where one past COUNT_CAP was found lately: only those are cached (a
 * count below the cap changes with every row). Each caller counts for itself (no shared load): a count may note
 * what it saw on the way.
 */
export async function countPastCap(cache: Cache<number>, key: string, count: () => Promise<number>): Promise<number> {
  const cached = cache.peek(key);
  if (cached !== undefined) return cached;
  const counted = await count();
  if (counted > COUNT_CAP) cache.set(key, counted);
  return counted;
}

/** What tells a parsed segment's content apart: a segment appended to has more rows; ids start over after a clear. */
export const parsedKey = (head: SegmentHead) => `${head.id}:${head.row_count}:${head.first_at.getTime()}`;
