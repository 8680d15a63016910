import { KeptReads } from './kept-reads';

/** A read whose answer the test gives when it wants, counting how often it was asked. */
function controlledRead() {
  const pending: Array<(value: string) => void> = [];
  const read = jest.fn(() => new Promise<string>((resolve) => pending.push(resolve)));
  return { read, answer: (value: string) => pending.shift()!(value) };
}

describe('KeptReads', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a key asked again within freshMs from memory, and reads it anew after', async () => {
    jest.useFakeTimers({ now: 0 });
    const kept = new KeptReads<string>(5_000, 8);
    const read = jest.fn().mockResolvedValueOnce('first').mockResolvedValueOnce('second');
    expect(await kept.get('page 1', read)).toBe('first');
    jest.setSystemTime(4_999);
    expect(await kept.get('page 1', read)).toBe('first');
    expect(read).toHaveBeenCalledTimes(1);
    jest.setSystemTime(5_000);
    expect(await kept.get('page 1', read)).toBe('second');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('shares one read among concurrent askers of a key, not among keys', async () => {
    const kept = new KeptReads<string>(5_000, 8);
    const { read, answer } = controlledRead();
    const [a, b, c] = [kept.get('page 1', read), kept.get('page 1', read), kept.get('page 2', read)];
    expect(read).toHaveBeenCalledTimes(2);
    answer('one');
    answer('two');
    expect(await Promise.all([a, b, c])).toEqual(['one', 'one', 'two']);
  });

  it('after clear(), neither keeps nor shares a read that began before it', async () => {
    const kept = new KeptReads<string>(5_000, 8);
    const { read, answer } = controlledRead();
    const before = kept.get('page 1', read);
    kept.clear();
    const after = kept.get('page 1', read);
    expect(read).toHaveBeenCalledTimes(2);
    answer('old');
    answer('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await kept.get('page 1', read)).toBe('new');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing of a failed read: the next asker reads again', async () => {
    const kept = new KeptReads<string>(5_000, 8);
    const read = jest.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValueOnce('back');
    await expect(kept.get('page 1', read)).rejects.toThrow('database gone');
    expect(await kept.get('page 1', read)).toBe('back');
    expect(read).toHaveBeenCalledTimes(2);
  });
});
