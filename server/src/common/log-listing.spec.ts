import { Cache } from './cache';
import { COUNT_CAP, countPastCap, pruneInBatches, WINDOW_MAX, WINDOW_MIN, windowSize } from './log-listing';

describe('log listing', () => {
  it('looks through twenty rows per row a page needs first, within its bounds', () => {
    expect(windowSize(25)).toBe(WINDOW_MIN);
    expect(windowSize(100)).toBe(2_000);
    expect(windowSize(COUNT_CAP)).toBe(WINDOW_MAX);
  });

  it('caches a count only when it is past the cap, until the cache is cleared', async () => {
    const cache = new Cache<number>({ max: 10, ttlMs: 60_000 });
    let counted = 0;
    const count = (n: number) => () => Promise.resolve((counted++, n));
    expect(await countPastCap(cache, 'small', count(3))).toBe(3);
    expect(await countPastCap(cache, 'small', count(4))).toBe(4);
    expect(await countPastCap(cache, 'big', count(COUNT_CAP + 1))).toBe(COUNT_CAP + 1);
    expect(await countPastCap(cache, 'big', count(5))).toBe(COUNT_CAP + 1);
    expect(counted).toBe(3);
    cache.clear();
    expect(await countPastCap(cache, 'big', count(5))).toBe(5);
  });

  it('prunes in batches until one comes short, and forgets the kept counts once rows went', async () => {
    const cache = new Cache<number>({ max: 10, ttlMs: 60_000 });
    cache.set('kept', COUNT_CAP + 1);
    const left = [3, 3, 1];
    expect(await pruneInBatches(() => Promise.resolve(left.shift() ?? 0), cache, 3)).toBe(7);
    expect(left).toEqual([]);
    expect(cache.peek('kept')).toBeUndefined();
  });
});
