import { FreshCache } from './fresh-cache';

describe('FreshCache', () => {
  it('computes once for concurrent calls, keeps the value while fresh, and computes again after', async () => {
    let now = 1_000;
    const cache = new FreshCache<number>(15_000, 16, () => now);
    let computations = 0;
    const compute = async () => ++computations;
    expect(await Promise.all([cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)])).toEqual([1, 1, 1]);
    now += 14_999;
    expect(await cache.get('k', compute)).toBe(1);
    now += 1;
    expect(await cache.get('k', compute)).toBe(2);
    expect(computations).toBe(2);
  });

  it('keeps keys apart and forgets the oldest beyond its size', async () => {
    const cache = new FreshCache<string>(60_000, 2);
    const calls: string[] = [];
    const compute = (key: string) => async () => (calls.push(key), key);
    await cache.get('a', compute('a'));
    await cache.get('b', compute('b'));
    await cache.get('c', compute('c'));
    await cache.get('b', compute('b'));
    await cache.get('a', compute('a'));
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps no failure: the next call tries again', async () => {
    const cache = new FreshCache<number>(60_000);
    await expect(cache.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });
});
