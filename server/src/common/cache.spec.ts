import { Cache } from './cache';

/** A load that resolves when told to, counting how often it was started. */
function controlledLoad<V>() {
  let started = 0;
  const pending: Array<(value: V) => void> = [];
  const load = () => {
    started++;
    return new Promise<V>((resolve) => pending.push(resolve));
  };
  return { load, started: () => started, finish: (value: V) => pending.shift()!(value) };
}

/** A clock the test moves by hand. */
function manualClock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('Cache', () => {
  it('shares one load among concurrent callers of a key, and keeps its value', async () => {
    const cache = new Cache<number>({ max: 10, ttlMs: 60_000 });
    const { load, started, finish } = controlledLoad<number>();
    const both = Promise.all([cache.get('a', load), cache.get('a', load)]);
    finish(7);
    expect(await both).toEqual([7, 7]);
    expect(await cache.get('a', load)).toBe(7);
    expect(started()).toBe(1);
  });

  it('neither keeps nor shares a load that began before clear(), yet gives its caller what it read', async () => {
    const cache = new Cache<string>({ max: 10, ttlMs: 60_000 });
    const { load, started, finish } = controlledLoad<string>();
    const before = cache.get('k', load);
    cache.clear();
    const after = cache.get('k', load);
    expect(started()).toBe(2);
    finish('read before the write');
    finish('read after the write');
    expect(await before).toBe('read before the write');
    expect(await after).toBe('read after the write');
    expect(cache.peek('k')).toBe('read after the write');
  });

  it('loads again once the ttl has passed', async () => {
    const clock = manualClock();
    const cache = new Cache<number>({ max: 10, ttlMs: 1_000, clock });
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('a', load)).toBe(1);
    clock.advance(999);
    expect(await cache.get('a', load)).toBe(1);
    clock.advance(2);
    expect(await cache.get('a', load)).toBe(2);
  });

  it('with staleWhileRevalidate, serves the expired value while a fresh one loads', async () => {
    const clock = manualClock();
    const cache = new Cache<string>({ max: 10, ttlMs: 1_000, staleWhileRevalidate: true, clock });
    const { load, started, finish } = controlledLoad<string>();
    const first = cache.get('a', load);
    finish('old');
    expect(await first).toBe('old');
    clock.advance(1_001);
    expect(await cache.get('a', load)).toBe('old');
    expect(started()).toBe(2);
    finish('new');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get('a', load)).toBe('new');
    expect(started()).toBe(2);
  });

  it('keeps no failed load: the next caller loads again', async () => {
    const cache = new Cache<number>({ max: 10, ttlMs: 60_000 });
    await expect(cache.get('a', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.get('a', async () => 3)).toBe(3);
  });

  it('keeps at most max values, dropping the one used longest ago', async () => {
    const cache = new Cache<number>({ max: 2, ttlMs: 60_000 });
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    await cache.get('a', async () => 0);
    await cache.get('c', async () => 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
  });
});
