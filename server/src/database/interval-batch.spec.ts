import { IntervalBatch } from './interval-batch';

describe('IntervalBatch', () => {
  afterEach(() => jest.useRealTimers());

  it('writes nothing when items are added, then everything added in one write when the interval ends', async () => {
    jest.useFakeTimers();
    const batches: number[][] = [];
    const batch = new IntervalBatch<number>(async (items) => void batches.push(items), 1000);
    for (let i = 0; i < 100; i++) batch.add(i);
    expect(batches).toEqual([]);
    expect(batch.size).toBe(100);
    await jest.advanceTimersByTimeAsync(1000);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(100);
    expect(batch.size).toBe(0);
  });

  it('starts a write at once when maxHeld items are held, and after a failed write waits for the interval again', async () => {
    jest.useFakeTimers();
    let fail = false;
    const batches: number[][] = [];
    const batch = new IntervalBatch<number>(
      async (items) => {
        if (fail) throw new Error('database away');
        batches.push(items);
      },
      1000,
      () => undefined,
      3,
    );
    batch.add(1);
    batch.add(2);
    expect(batches).toEqual([]);
    batch.add(3);
    await jest.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([[1, 2, 3]]);
    fail = true;
    for (const item of [4, 5, 6, 7]) batch.add(item);
    await jest.advanceTimersByTimeAsync(0);
    expect(batch.size).toBe(4);
    fail = false;
    batch.add(8);
    await jest.advanceTimersByTimeAsync(0);
    expect(batches).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6, 7, 8],
    ]);
  });

  it('writes at once on flush, one write at a time, everything added before the flush stored when it resolves', async () => {
    const batches: number[][] = [];
    let active = 0;
    let maxActive = 0;
    const batch = new IntervalBatch<number>(async (items) => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setImmediate(resolve));
      batches.push(items);
      active -= 1;
    }, 60_000);
    batch.add(1);
    const first = batch.flush();
    batch.add(2);
    batch.add(3);
    await Promise.all([first, batch.flush()]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(maxActive).toBe(1);
  });

  it('keeps the items of a failed write, in order, for the next one: none lost, none twice', async () => {
    let fail = true;
    const written: number[] = [];
    const errors: unknown[] = [];
    const batch = new IntervalBatch<number>(
      async (items) => {
        if (fail) throw new Error('database away');
        written.push(...items);
      },
      60_000,
      (error) => errors.push(error),
    );
    batch.add(1);
    batch.add(2);
    await expect(batch.flush()).rejects.toThrow('database away');
    batch.add(3);
    fail = false;
    await batch.flush();
    expect(written).toEqual([1, 2, 3]);
    await batch.flush();
    expect(written).toEqual([1, 2, 3]);
  });

  it('drops and counts items beyond maxBacklog while writes fail, keeps the held ones, and takes items again once written', async () => {
    jest.useFakeTimers();
    let fail = true;
    const written: number[] = [];
    const batch = new IntervalBatch<number>(
      async (items) => {
        if (fail) throw new Error('database away');
        written.push(...items);
      },
      1000,
      () => undefined,
      Infinity,
      3,
    );
    expect([1, 2, 3, 4, 5].map((item) => batch.add(item))).toEqual([true, true, true, false, false]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(batch.add(6)).toBe(false);
    expect(batch.dropped).toBe(3);
    expect(batch.size).toBe(3);
    fail = false;
    await jest.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([1, 2, 3]);
    expect(batch.add(7)).toBe(true);
    await batch.flush();
    expect(written).toEqual([1, 2, 3, 7]);
  });
});
