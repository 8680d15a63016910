import { Cache } from './cache';

/** Rows counted exactly at most; a list matching more responds with a total counted in the background (ListTotals). */
export const EXACT_TOTAL_CAP = 10_000;

/** How a repository counts the rows of one list: up to a limit (one bounded index range), or all of them. */
export interface TotalCounter {
  upTo(limit: number): Promise<number>;
  all(): Promise<number>;
}

/**
 * A later page at or past `offset` seeks to this row's sort value and counts off only the rows between. Another instance's writes
 * shift such a page until the mark's ttl ends (this instance's own writes drop its marks); a mark whose row is gone is dropped.
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
 * Counting a million rows takes longer than a page should: past EXACT_TOTAL_CAP the exact count runs in the background and is
 * served for `ttlMs` (then stale while recounted); until it is in, the total is EXACT_TOTAL_CAP + 1, an estimate, as the list
 * DTOs say. The table's owner calls `clear()` on each of its writes, so its own changes show at once.
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
    /** Small totals: 0 unless every write the list's filters see goes through its owner; then briefly, so a search counts once. */
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
