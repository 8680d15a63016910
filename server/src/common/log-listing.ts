import type { Cache } from './cache';

/** What every log list shares (the audit, remote, download and access logs): filters, pages, counting, pruning. */

export const LOG_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A row as the driver returns it: numbers may come as strings (MySQL BIGINT), dates as Date or text. */
export type RawRow = Record<string, unknown>;

/** Counting stops here: an exact count of millions of rows costs seconds, and nobody pages that far. */
export const COUNT_CAP = 10_000;
/** Rows of the newest (or oldest) entries a search first looks through, at least and at most. */
export const WINDOW_MIN = 500;
export const WINDOW_MAX = 20_000;
/** Rows of the newest entries a search first reads for a page that needs `need` matches. */
export const windowSize = (need: number) => Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, need * 20));
/** A total is estimated (as more than COUNT_CAP) only when the estimate is this many times the cap. */
export const ESTIMATE_MARGIN = 3;
/**
 * A count past COUNT_CAP is cached this long, by what it counts: the first page of a log is asked for every 30 s
 * by each open screen, a search is paged through, and a count is most of the cost of either. The rows of a log
 * only grow, but for a prune or a clear (which clear the cache on this instance).
 */
export const CAPPED_COUNT_TTL_MS = 10_000;
/** Capped counts cached at most (the one used longest ago goes first). */
export const CAPPED_COUNTS_MAX = 256;

/** The filters, paging and order of every log list. */
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

/** `count()`, or a count past COUNT_CAP its service caches for `key` (see countPastCap). */
export type CountPastCap = (key: string, count: () => Promise<number>) => Promise<number>;

/**
 * `count()`, or the count cached for `key` where one past COUNT_CAP was found lately: only those are cached (a
 * count below the cap changes with every row).
 */
export async function countPastCap(cache: Cache<number>, key: string, count: () => Promise<number>): Promise<number> {
  const cached = cache.peek(key);
  if (cached !== undefined) return cached;
  const counted = await count();
  if (counted > COUNT_CAP) cache.set(key, counted);
  return counted;
}

/** Rows a prune deletes at a time. */
const PRUNE_BATCH = 5_000;

/**
 * Deletes rows in batches, never one huge DELETE (`deleteBatch` deletes up to `batch` of the rows to go and says
 * how many it deleted), yielding to the event loop between batches. `counts` (a service's counts past COUNT_CAP) is
 * cleared once rows have gone. Returns how many went.
 */
export async function pruneInBatches(
  deleteBatch: (batch: number) => Promise<number>,
  counts: Cache<number>,
  batch = PRUNE_BATCH,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const deleted = await deleteBatch(batch);
    removed += deleted;
    if (deleted) counts.clear();
    if (deleted < batch) return removed;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
