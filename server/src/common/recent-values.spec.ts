import { RecentValues } from './recent-values';

describe('RecentValues', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a value only while it is younger than the age asked for, and however old without one', () => {
    jest.useFakeTimers({ now: 0 });
    const values = new RecentValues<number>(4);
    values.set('a', 1);
    jest.setSystemTime(4_999);
    expect(values.get('a', 5_000)).toBe(1);
    jest.setSystemTime(5_000);
    expect(values.get('a', 5_000)).toBeUndefined();
    expect(values.get('a', 60_000)).toBe(1);
    expect(values.get('a')).toBe(1);
    values.set('a', 2);
    expect(values.get('a', 1)).toBe(2);
  });

  it('keeps at most its size, dropping the value set longest ago (setting again makes a value new)', () => {
    const values = new RecentValues<string | null>(2);
    values.set('a', 'A');
    values.set('b', null);
    values.set('a', 'A2');
    values.set('c', 'C');
    expect([values.get('a'), values.get('b'), values.get('c'), values.count]).toEqual(['A2', undefined, 'C', 2]);
    values.delete('a');
    expect(values.get('a')).toBeUndefined();
    values.clear();
    expect(values.count).toBe(0);
  });
});
