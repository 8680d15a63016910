import { BackgroundFigures } from './background-figures';

/** A computation that takes `costMs` on the fake clock, and counts its runs. */
function computation(clock: { now: number }, costMs: number) {
  let runs = 0;
  let release: () => void = () => undefined;
  const compute = () => {
    runs++;
    const run = runs;
    return new Promise<number>((resolve) => {
      release = () => {
        clock.now += costMs;
        resolve(run);
      };
    });
  };
  return { compute, runs: () => runs, finish: () => release() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BackgroundFigures', () => {
  it('computes cheap figures for the request once they are no longer fresh, sharing one computation', async () => {
    const clock = { now: 0 };
    const figures = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    const work = computation(clock, 5);
    const answers = Promise.all([figures.get('k', work.compute), figures.get('k', work.compute)]);
    work.finish();
    expect(await answers).toEqual([1, 1]);
    clock.now += 14_000;
    expect(await figures.get('k', work.compute)).toBe(1);
    clock.now += 1_000;
    const again = figures.get('k', work.compute);
    work.finish();
    expect(await again).toBe(2);
  });

  it('answers expensive figures at once when stale, and computes new ones off the request path', async () => {
    const clock = { now: 0 };
    const figures = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    const work = computation(clock, 3_000);
    const first = figures.get('k', work.compute);
    work.finish();
    expect(await first).toBe(1);
    clock.now += 20_000;
    expect(await figures.get('k', work.compute)).toBe(1);
    expect(await figures.get('k', work.compute)).toBe(1);
    expect(work.runs()).toBe(2);
    work.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await figures.get('k', work.compute)).toBe(2);
  });

  it('lets warmed figures stand in only for expensive ones, never as fresh, and only while nothing was added', async () => {
    const clock = { now: 0 };
    const unchanged = async () => 'ids 1,2';
    const cheap = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    const quick = computation(clock, 5);
    cheap.warm('k', quick.compute, unchanged);
    await settle();
    quick.finish();
    await settle();
    const asked = cheap.get('k', quick.compute, unchanged);
    await settle();
    quick.finish();
    expect(await asked).toBe(2);

    const expensive = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    const slow = computation(clock, 3_000);
    expensive.warm('k', slow.compute, unchanged);
    await settle();
    slow.finish();
    await settle();
    expect(await expensive.get('k', slow.compute, unchanged)).toBe(1);
    await settle();
    expect(slow.runs()).toBe(2);

    const added = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    const counted = computation(clock, 3_000);
    let print = 'ids 1,2';
    added.warm('k', counted.compute, async () => print);
    await settle();
    counted.finish();
    await settle();
    print = 'ids 1,3';
    const fresh = added.get('k', counted.compute, async () => print);
    await settle();
    counted.finish();
    expect(await fresh).toBe(2);
  });

  it('keeps no failure, and keeps what it had when a refresh fails', async () => {
    const clock = { now: 0 };
    const figures = new BackgroundFigures<number>(15_000, 100, 16, () => clock.now);
    await expect(figures.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    const slow = computation(clock, 3_000);
    const first = figures.get('k', slow.compute);
    slow.finish();
    expect(await first).toBe(1);
    clock.now += 20_000;
    expect(await figures.get('k', () => Promise.reject(new Error('database away')))).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await figures.get('k', slow.compute)).toBe(1);
  });
});
