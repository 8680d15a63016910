import type { Cache } from '../../common/cache';

/**
 * Figures loaded into their Cache at boot, off any request, so that on a large database no first call waits for
 * them. They stand in for a request only while the tables' highest ids (`fingerprint`, read before they were
 * counted) say no row was added since: the first request of each key after they are in checks that once.
 */
export class WarmAtBoot<V extends NonNullable<unknown>> {
  private readonly warmed = new Map<string, { print: Promise<string>; done: boolean }>();

  constructor(
    private readonly cache: Cache<V>,
    private readonly fingerprint: () => Promise<string>,
  ) {}

  warm(key: string, load: () => Promise<V>): void {
    const warm = { print: this.fingerprint(), done: false };
    this.warmed.set(key, warm);
    warm.print
      .then(() => this.cache.get(key, load))
      .then(
        () => (warm.done = true),
        () => this.warmed.delete(key),
      );
  }

  /** The key's figures from the cache, unless they were counted at boot and rows were added since. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const warm = this.warmed.get(key);
    // Until the boot count is in, callers (other figures counted at boot among them) share it.
    if (warm?.done) {
      this.warmed.delete(key);
      const [before, now] = await Promise.all([warm.print, this.fingerprint()]);
      if (before !== now) this.cache.delete(key);
    }
    return this.cache.get(key, load);
  }
}
