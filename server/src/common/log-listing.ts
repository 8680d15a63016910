import type { Cache } from './cache';

/** What every log list shares (the audit, remote, download and access logs): filters, pages, counting, pruning. */

export const LOG_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A row as the driver returns it: numbers may come as strings (MySQL BIGINT), dates as Date or text. */
export type RawRow = Record<string, unknown>;

/** Counting stops here: an exact count of millions of rows is slow, and nobody pages that far. */
export const COUNT_CAP = 10_000;
/** Rows of the newest (or oldest) entries a search first looks through, at least and at most. */
export const WINDOW_MIN = 500;
export const WINDOW_MAX = 20_000;
/** Rows of the newest entries a search first reads for a page that needs `need` matches. */
export const windowSize = (need: number) => Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, need * 20));
/** A total is estimated (as more than COUNT_CAP) only when the estimate is this many times the cap. */
export const ESTIMATE_MARGIN = 3;
/** Open screens keep asking for page one and searches are paged through, a count being most of the cost; prunes clear the cache. */
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
  /** `total` is a lower bound; a search's is estimated from the newest entries' share of matches (see ESTIMATE_MARGIN). */
  capped: boolean;
  page: number;
  limit: number;
}

/** `count()`, or a count past COUNT_CAP its service caches for `key` (see countPastCap). */
export type CountPastCap = (key: string, count: () => Promise<number>) => Promise<number>;

/** Only counts past COUNT_CAP are cached: a count below the cap changes with every row. */
export async function countPastCap(cache: Cache<number>, key: string, count: () => Promise<number>): Promise<number> {
  const cached = cache.peek(key);
  if (cached !== undefined) return cached;
  const counted = await count();
  if (counted > COUNT_CAP) cache.set(key, counted);
  return counted;
}

/** Rows a prune deletes at a time. */
const PRUNE_BATCH = 5_000;

/** Never one huge DELETE: batches, yielding to the event loop between them; `counts` is cleared once rows have gone. */
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
