import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes items added together in one batch and settles every caller after the write', async () => {
    const batches: number[][] = [];
    let written = 0;
    const commit = new GroupCommit<number>(async (items) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      batches.push(items);
      written += items.length;
    });
    const first = await Promise.all([1, 2, 3].map(async (n) => (await commit.add(n), written)));
    expect(batches).toEqual([[1, 2, 3]]);
    expect(first).toEqual([3, 3, 3]);
  });

  it('runs one write at a time and batches what arrives meanwhile', async () => {
    let active = 0;
    let maxActive = 0;
    const sizes: number[] = [];
    const commit = new GroupCommit<number>(async (items) => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 2));
      sizes.push(items.length);
      active -= 1;
    }, 50);
    const all: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      all.push(commit.add(i));
      if (i % 37 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(all);
    expect(maxActive).toBe(1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
  });

  it('rejects the callers of a failed write, and keeps going for later ones', async () => {
    let fail = true;
    const commit = new GroupCommit<number>(async () => {
      if (fail) throw new Error('disk full');
    });
    await expect(commit.add(1)).rejects.toThrow('disk full');
    fail = false;
    await expect(commit.add(2)).resolves.toBeUndefined();
  });

  it('drains everything queued', async () => {
    const seen: number[] = [];
    const commit = new GroupCommit<number>(async (items) => void seen.push(...items));
    void commit.add(1);
    void commit.add(2);
    await commit.drain();
    expect(seen).toEqual([1, 2]);
  });
});
