import { LRUCache } from 'lru-cache';

export interface CacheOptions {
  /** Values kept at most; the one used longest ago goes first. */
  max: number;
  /** How long a value is fresh, in milliseconds. */
  ttlMs: number;
  /**
   * Serve a value past its ttl while a fresh one loads in the background (stale-while-revalidate): for figures that
   * are slow to compute and may lag a little. Without it an expired value is loaded again before the response.
   */
  staleWhileRevalidate?: boolean;
  /** The clock ttls are measured on (tests pass one they move by hand); performance.now by default. */
  clock?: { now(): number };
}

/**
 * The portal's one cache: values by key (lru-cache), each fresh for `ttlMs`, at most `max` of them. Concurrent
 * callers of `get` for one key share one load. The owner of what is cached calls `clear()` (or `delete(key)`) when
 * it writes, so this instance's changes show at once: a load that began before is neither kept nor shared after
 * it; another instance's writes show within the ttl. Values are shared between callers: never change one.
 * Caches live in services, next to the rules that say when a value changes.
 */
export class Cache<V extends NonNullable<unknown>> {
  private readonly lru: LRUCache<string, V, () => Promise<V>>;

  constructor(options: CacheOptions) {
    this.lru = new LRUCache<string, V, () => Promise<V>>({
      max: options.max,
      ttl: options.ttlMs,
      allowStale: options.staleWhileRevalidate ?? false,
      noDeleteOnStaleGet: options.staleWhileRevalidate ?? false,
      // clear() and delete() drop a load in flight from the cache, yet its callers still get what it read.
      ignoreFetchAbort: true,
      fetchMethod: (_key, _stale, { context }) => context(),
      ...(options.clock ? { perf: options.clock, ttlResolution: 0 } : {}),
    });
  }

  /** The value of `key`: the cached one while fresh, else what `load` gives (which is then kept). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const value = await this.lru.fetch(key, { context: load });
    // fetchMethod only gives undefined for a load dropped by clear() before it began; load it for this caller alone.
    return value === undefined ? load() : value;
  }

  /** The value of `key` if one is cached and fresh (or stale, with staleWhileRevalidate), without loading. */
  peek(key: string): V | undefined {
    return this.lru.get(key);
  }

  set(key: string, value: V): void {
    this.lru.set(key, value);
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}
