import { GroupRead } from './group-read';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupRead', () => {
  it('reads keys asked for together in one batch and gives each caller its own result', async () => {
    const batches: number[][] = [];
    const reads = new GroupRead<number, string>(async (keys) => {
      batches.push(keys);
      return keys.map((key) => `value ${key}`);
    });
    expect(await Promise.all([3, 1, 2].map((key) => reads.load(key)))).toEqual(['value 3', 'value 1', 'value 2']);
    expect(batches).toEqual([[3, 1, 2]]);
  });

  it('keeps at most maxInFlight reads going, batches of at most maxBatch, and batches what arrives meanwhile', async () => {
    let active = 0;
    let maxActive = 0;
    const sizes: number[] = [];
    const reads = new GroupRead<number, number>(
      async (keys) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 2));
        sizes.push(keys.length);
        active -= 1;
        return keys.map((key) => key * 2);
      },
      16,
      2,
    );
    const all: Array<Promise<number>> = [];
    for (let i = 0; i < 300; i++) {
      all.push(reads.load(i));
      if (i % 23 === 0) await tick();
    }
    expect(await Promise.all(all)).toEqual(Array.from({ length: 300 }, (_, i) => i * 2));
    expect(maxActive).toBe(2);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(Math.max(...sizes)).toBe(16);
  });

  it('rejects the callers of a failed read, and keeps going for later ones', async () => {
    let fail = true;
    const reads = new GroupRead<number, number>(async (keys) => {
      if (fail) throw new Error('connection lost');
      return keys;
    });
    await expect(Promise.all([reads.load(1), reads.load(2)])).rejects.toThrow('connection lost');
    fail = false;
    await expect(reads.load(3)).resolves.toBe(3);
  });
});
