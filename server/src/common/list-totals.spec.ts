import { EXACT_TOTAL_CAP, ListTotals, TotalCounter } from './list-totals';

/** A counter over `rows` rows that records its calls; `all` resolves when released. */
function counter(rows: number) {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (release = resolve));
  const counting: TotalCounter = {
    upTo: async (limit) => {
      calls.push(`upTo ${limit}`);
      return Math.min(rows, limit);
    },
    all: async () => {
      calls.push('all');
      await allDone;
      return rows;
    },
  };
  return { counting, calls, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ListTotals', () => {
  it('counts a small list exactly each time, unless exact totals are cached', async () => {
    const uncached = new ListTotals();
    const small = counter(42);
    expect(await uncached.total('k', small.counting)).toBe(42);
    expect(await uncached.total('k', small.counting)).toBe(42);
    expect(small.calls).toEqual([`upTo ${EXACT_TOTAL_CAP + 1}`, `upTo ${EXACT_TOTAL_CAP + 1}`]);

    const cached = new ListTotals(60_000, 64, 5_000);
    const again = counter(42);
    await cached.total('k', again.counting);
    await cached.total('k', again.counting);
    expect(again.calls).toHaveLength(1);
  });

  it('answers a large list with the estimate first, then with the exact count made in the background', async () => {
    const totals = new ListTotals();
    const large = counter(1_000_000);
    expect(await totals.total('k', large.counting)).toBe(EXACT_TOTAL_CAP + 1);
    large.release();
    await settle();
    expect(await totals.total('k', large.counting)).toBe(1_000_000);
    expect(large.calls).toEqual([`upTo ${EXACT_TOTAL_CAP + 1}`, 'all']);
  });

  it('forgets totals and page marks on clear(), and takes no mark from a read that began before it', async () => {
    const totals = new ListTotals();
    const large = counter(1_000_000);
    await totals.total('k', large.counting);
    large.release();
    await settle();
    const since = totals.since;
    totals.mark('list', 2_000, 17, since);
    expect(totals.markBefore('list', 2_500)).toMatchObject({ offset: 2_000, id: 17 });
    totals.clear();
    expect(totals.markBefore('list', 2_500)).toBeUndefined();
    totals.mark('list', 3_000, 18, since);
    expect(totals.markBefore('list', 3_500)).toBeUndefined();
    const fresh = counter(5);
    expect(await totals.total('k', fresh.counting)).toBe(5);
  });

  it("finds the nearest mark before an offset and forgets a list's marks", () => {
    const totals = new ListTotals();
    for (const [offset, id] of [
      [1_000, 1],
      [3_000, 3],
      [2_000, 2],
    ])
      totals.mark('list', offset, id, totals.since);
    expect(totals.markBefore('list', 2_999)?.id).toBe(2);
    expect(totals.markBefore('list', 999)).toBeUndefined();
    totals.forgetMarks('list');
    expect(totals.markBefore('list', 5_000)).toBeUndefined();
  });
});
