/**
 * How far every log list counts and looks, the access log's and the other System Logs lists' alike (the logs
 * module reads them here: it depends on this module, not the other way round).
 */

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
