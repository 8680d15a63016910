import { Cache } from './cache';

/** Rows counted exactly at most; a list matching more responds with a total counted in the background (ListTotals). */
export const EXACT_TOTAL_CAP = 10_000;

/** How a repository counts the rows of one list: up to a limit (one bounded index range), or all of them. */
export interface TotalCounter {
  upTo(limit: number): Promise<number>;
  all(): Promise<number>;
}

/**
 * A row found at `offset` of a list in a fixed-column order. A later read of a page at or beyond it seeks to that
 * row's sort value on the index and counts off only the rows between, instead of every row before the page. Rows
 * written since by another instance shift such a page by as many rows until the mark's ttl ends (this instance's
 * own writes drop its marks: ListTotals.clear); a mark whose row is gone is noticed and dropped.
 */
export interface PageMark {
  offset: number;
  id: number;
  /** When it was found (Date.now()): each mark is good for PAGE_MARK_TTL_MS. */
  at: number;
}
const PAGE_MARK_TTL_MS = 30_000;
const PAGE_MARKS_PER_LIST = 16;

/**
 * The totals of a service's large lists, and the page marks of their deep pages. Counting a million rows takes
 * longer than a page should, so a list counts at most EXACT_TOTAL_CAP + 1 matching rows; when there are more, the
 * exact count runs in the background and is served for `ttlMs` (then served stale while it is counted again).
 * Until the first exact count is in, the total is EXACT_TOTAL_CAP + 1: an estimate, as the list DTOs say. The
 * service that owns the list's table calls `clear()` on each of its writes, so its own changes show at once.
 */
export class ListTotals {
  private readonly large: Cache<number>;
  private readonly exact: Cache<number> | null;
  private readonly marks: Cache<PageMark[]>;
  /** Raised by clear(), so a page read that began before a write marks nothing after it. */
  private generation = 0;

  constructor(
    ttlMs = 60_000,
    max = 64,
    /**
     * How long a total of EXACT_TOTAL_CAP or fewer rows is cached: 0 (counted on every call) unless every write
     * the list's filters and search see goes through its owner; then briefly, so paging through a search counts once.
     */
    exactTtlMs = 0,
  ) {
    this.large = new Cache({ max, ttlMs, staleWhileRevalidate: true });
    this.exact = exactTtlMs ? new Cache({ max, ttlMs: exactTtlMs }) : null;
    this.marks = new Cache({ max, ttlMs: PAGE_MARK_TTL_MS });
  }

  clear(): void {
    this.large.clear();
    this.exact?.clear();
    this.marks.clear();
    this.generation++;
  }

  /** The total of list `key`, counted by `counter` when no fresh total is cached. */
  async total(key: string, counter: TotalCounter): Promise<number> {
    const cached = this.exact?.peek(key) ?? this.large.peek(key);
    if (cached !== undefined) return cached > EXACT_TOTAL_CAP ? this.large.get(key, () => counter.all()) : cached;
    const bounded = await counter.upTo(EXACT_TOTAL_CAP + 1);
    if (bounded <= EXACT_TOTAL_CAP) {
      this.exact?.set(key, bounded);
      return bounded;
    }
    // A failed background count leaves the estimate; the next call tries again.
    this.large.get(key, () => counter.all()).catch(() => undefined);
    return bounded;
  }

  /** What a later `mark` passes back, so a read that began before a write marks nothing after it. */
  get since(): number {
    return this.generation;
  }

  /** The mark nearest before `offset` in list `key`. */
  markBefore(key: string, offset: number): PageMark | undefined {
    const now = Date.now();
    let best: PageMark | undefined;
    for (const mark of this.marks.peek(key) ?? [])
      if (mark.offset <= offset && now - mark.at < PAGE_MARK_TTL_MS && (!best || mark.offset > best.offset)) best = mark;
    return best;
  }

  /** Notes that the row `id` is at `offset` of list `key` (unless the list was written since `since`). */
  mark(key: string, offset: number, id: number, since: number): void {
    if (since !== this.generation) return;
    const marks = (this.marks.peek(key) ?? []).filter((mark) => mark.offset !== offset);
    this.marks.set(key, [...marks, { offset, id, at: Date.now() }].slice(-PAGE_MARKS_PER_LIST));
  }

  /** Drops the marks of list `key` (one no longer leads to its row). */
  forgetMarks(key: string): void {
    this.marks.delete(key);
  }
}
