import { Cache } from '../../common/cache';
import { WarmAtBoot } from './warm-at-boot';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A load that counts its runs and gives the run's number. */
function counting() {
  let runs = 0;
  return { load: async () => ++runs, runs: () => runs };
}

describe('WarmAtBoot', () => {
  it('lets figures counted at boot stand in while no row was added since', async () => {
    const cache = new Cache<number>({ max: 4, ttlMs: 60_000 });
    const warm = new WarmAtBoot(cache, async () => 'ids 1,2');
    const work = counting();
    warm.warm('k', work.load);
    await settle();
    expect(await warm.get('k', work.load)).toBe(1);
    expect(work.runs()).toBe(1);
  });

  it('counts anew for the first request once rows were added since the boot count', async () => {
    const cache = new Cache<number>({ max: 4, ttlMs: 60_000 });
    let print = 'ids 1,2';
    const warm = new WarmAtBoot(cache, async () => print);
    const work = counting();
    warm.warm('k', work.load);
    await settle();
    print = 'ids 1,3';
    expect(await warm.get('k', work.load)).toBe(2);
    // Checked once: later calls are the cache's.
    print = 'ids 1,4';
    expect(await warm.get('k', work.load)).toBe(2);
  });

  it('shares the boot count with callers that come while it runs (other figures counted at boot)', async () => {
    const cache = new Cache<number>({ max: 4, ttlMs: 60_000 });
    let print = 'ids 1';
    const warm = new WarmAtBoot(cache, async () => print);
    let release: (value: number) => void = () => undefined;
    const slow = () => new Promise<number>((resolve) => (release = resolve));
    warm.warm('k', slow);
    await settle();
    const nested = warm.get('k', slow);
    release(1);
    expect(await nested).toBe(1);
    await settle();
    print = 'ids 2';
    expect(await warm.get('k', async () => 2)).toBe(2);
  });
});
