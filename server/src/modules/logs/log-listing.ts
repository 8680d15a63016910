import type { Cache } from '../../common/cache';
import { COUNT_CAP } from '../access-log/access-log.constants';
import type { LogLevel } from './audit-log.entity';

export { COUNT_CAP };

/** The filters, paging and order of every log list (the access log's included). */
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
