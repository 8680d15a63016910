import { Cache } from '../../common/cache';
import { COUNT_CAP, WINDOW_MAX, WINDOW_MIN, windowSize } from './access-log.constants';
import {
  AccessLogQuery,
  afterTermEntries,
  countMatches,
  countPastCap,
  eachMatch,
  leastMatches,
  parsedKey,
  SegmentHead,
  TERM_ENTRIES_MAX,
  TERM_ENTRIES_READS,
  TermEntry,
} from './access-log-query';
import { encodeSegments, NewAccessLogRow, SegmentRows } from './access-log-segments';

const at = Date.UTC(2026, 10, 28);
const row = (i: number, fields: Partial<NewAccessLogRow> = {}): NewAccessLogRow => ({
  method: 'GET',
  route: '/api/me',
  path: '/api/me',
  status: 200,
  duration_ms: 1,
  bytes_out: 10,
  user_id: null,
  user_email: null,
  ip_address: '127.0.0.1',
  user_agent: 'agent',
  created_at: new Date(at + i * 1000),
  ...fields,
});
const segmentOf = (rows: NewAccessLogRow[]) => new SegmentRows(1, encodeSegments(rows)[0].body);
const head = (fields: Partial<SegmentHead> = {}): SegmentHead => ({
  id: 7,
  first_at: new Date(at),
  last_at: new Date(at + 60_000),
  row_count: 100,
  errors: 5,
  warnings: 15,
  ...fields,
});
const entry = (id: number, value: string, hits: number, errors = 0, warnings = 0): TermEntry => ({ id, value, hits, errors, warnings });

describe('access-log query planning', () => {
  it('reads the search and the user filter lower-cased and trimmed, a three-digit search also as a status', () => {
    const query = new AccessLogQuery({ search: '  /API/Me ', user: ' Ann@X ' });
    expect([query.term, query.user, query.status, query.searching]).toEqual(['/api/me', 'ann@x', null, true]);
    expect(new AccessLogQuery({ search: '404' }).status).toBe(404);
    expect(new AccessLogQuery({ search: '4040' }).status).toBeNull();
    expect(new AccessLogQuery({ search: '   ' }).searching).toBe(false);
    expect(new AccessLogQuery({}).descending).toBe(true);
    expect(new AccessLogQuery({ order: 'asc' }).descending).toBe(false);
  });

  it('keys a count by its filters, not by its order or page', () => {
    const key = (filters: ConstructorParameters<typeof AccessLogQuery>[0]) => new AccessLogQuery(filters).countKey();
    expect(key({ search: 'X', page: 1, order: 'asc' })).toBe(key({ search: 'x', page: 9, limit: 5 }));
    expect(key({ search: 'x' })).not.toBe(key({ search: 'x', level: 'error' }));
    expect(key({ from: new Date(at) })).not.toBe(key({ to: new Date(at) }));
  });

  it('looks a search up by the beginning of each kind of value, and a status exactly; the user by its e-mail', () => {
    expect(new AccessLogQuery({ search: '500', user: 'ops@' }).lookups()).toEqual([
      { prefixes: ['p500', 'r500', 'i500', 'e500'], exact: ['s500'] },
      { prefixes: ['eops@'], exact: [] },
    ]);
    expect(new AccessLogQuery({ search: '/api' }).lookups()).toEqual([{ prefixes: ['p/api', 'r/api', 'i/api', 'e/api'], exact: [] }]);
    expect(new AccessLogQuery({}).lookups()).toEqual([]);
  });

  it('counts from the terms only where one lookup is asked and no date cuts through the segments', () => {
    const one = new AccessLogQuery({ search: '/api' });
    expect(one.countable(one.lookups())).toBe(true);
    const two = new AccessLogQuery({ search: '/api', user: 'a' });
    expect(two.countable(two.lookups())).toBe(false);
    const dated = new AccessLogQuery({ search: '/api', from: new Date(at) });
    expect(dated.countable(dated.lookups())).toBe(false);
  });

  it('passes the date and level filters to the segments, and counts a whole segment from its head', () => {
    expect(new AccessLogQuery({ search: 'x', order: 'asc' }).segmentFilter()).toEqual({});
    const from = new Date(at + 1);
    expect(new AccessLogQuery({ from, level: 'warning' }).segmentFilter()).toEqual({ from, level: 'warning' });
    expect(new AccessLogQuery({}).exactWithoutSearch(head())).toBe(100);
    expect(new AccessLogQuery({ level: 'error' }).exactWithoutSearch(head())).toBe(5);
    expect(new AccessLogQuery({ level: 'info' }).exactWithoutSearch(head())).toBe(80);
    expect(new AccessLogQuery({ level: 'debug' }).exactWithoutSearch(head())).toBe(0);
    // A date inside the segment's span: its rows must be tested.
    expect(new AccessLogQuery({ from: new Date(at + 1) }).exactWithoutSearch(head())).toBeNull();
    expect(new AccessLogQuery({ to: new Date(at + 60_000) }).exactWithoutSearch(head())).toBe(100);
    expect(new AccessLogQuery({ from: new Date(at), level: 'warning' }).unfiltered).toBe(false);
    expect(new AccessLogQuery({ search: 'x', order: 'asc' }).unfiltered).toBe(true);
  });

  it('sees a walked segment without the term as holding no match, and one with it as unknown', () => {
    const query = new AccessLogQuery({ search: '/api' });
    expect(query.candidate(head(), new Set([8]))).toEqual({ head: head(), exact: 0, atLeast: 0 });
    expect(query.candidate(head(), new Set([7]))).toEqual({ head: head(), exact: null, atLeast: 0 });
    expect(new AccessLogQuery({ level: 'error' }).candidate(head(), null)).toEqual({ head: head(), exact: 5, atLeast: 5 });
  });

  it("tallies term entries per segment and kind, of the values the rows' test would match, at the level asked", () => {
    const query = new AccessLogQuery({ search: '/api/cafe' });
    const [lookup] = query.lookups();
    const entries = [
      entry(1, 'p/api/cafe/1', 3, 1, 1),
      entry(1, 'r/api/cafe/:id', 3, 1, 1),
      entry(1, 'p/api/cafe/2', 2),
      // What MySQL's collation finds for the prefix, but the rows' test does not match.
      entry(2, 'p/api/café/1', 4),
      entry(3, 'p/api/cafe/3', 6),
    ];
    expect(query.tally(lookup, entries, null)).toEqual(
      new Map([
        [
          1,
          new Map([
            ['p', 5],
            ['r', 3],
          ]),
        ],
        [3, new Map([['p', 6]])],
      ]),
    );
    const errors = new AccessLogQuery({ search: '/api/cafe', level: 'error' });
    expect(errors.tally(lookup, entries, null)).toEqual(
      new Map([
        [
          1,
          new Map([
            ['p', 1],
            ['r', 1],
          ]),
        ],
      ]),
    );
    // With a user filter too, only the segments the first lookup found.
    expect([...query.tally(lookup, entries, new Map([[3, new Map()]])).keys()]).toEqual([3]);
  });

  it('knows a segment found through its terms holds exactly its one kind of term, else at least the most of one kind', () => {
    const query = new AccessLogQuery({ search: '/api' });
    expect(query.termCandidate(head(), new Map([['p', 4]]))).toMatchObject({ exact: 4, atLeast: 4 });
    expect(
      query.termCandidate(
        head(),
        new Map([
          ['p', 4],
          ['r', 6],
        ]),
      ),
    ).toMatchObject({ exact: null, atLeast: 6 });
    // A date that cuts through the segment: neither.
    expect(new AccessLogQuery({ search: '/api', to: new Date(at + 1) }).termCandidate(head(), new Map([['p', 4]]))).toMatchObject({
      exact: null,
      atLeast: 0,
    });
    expect(
      leastMatches(
        new Map([
          [
            1,
            new Map([
              ['p', 4],
              ['r', 6],
            ]),
          ],
          [2, new Map([['i', 3]])],
        ]),
      ),
    ).toBe(9);
  });

  it('reads more term entries while few match, and walks the segments for a common term', () => {
    const [first, second] = TERM_ENTRIES_READS;
    expect(afterTermEntries(first, first, 50)).toBe('segments');
    expect(afterTermEntries(first + 1, first, 50)).toBe('more');
    expect(afterTermEntries(first + 1, first, null)).toBe('more');
    expect(afterTermEntries(second + 1, second, COUNT_CAP + 1)).toBe('walk');
    expect(afterTermEntries(TERM_ENTRIES_MAX + 1, TERM_ENTRIES_MAX, 3)).toBe('walk');
  });

  it('looks through twenty rows per row a page needs first, within its bounds', () => {
    expect(windowSize(25)).toBe(WINDOW_MIN);
    expect(windowSize(100)).toBe(2_000);
    expect(windowSize(COUNT_CAP)).toBe(WINDOW_MAX);
  });

  it("visits a segment's rows passing the filters and the search in the list's order, and counts them", () => {
    const segment = segmentOf([
      row(0, { status: 500 }),
      row(1, { path: '/api/admin/users', status: 404 }),
      row(2, { path: '/api/admin/users' }),
      row(3, { status: 503 }),
    ]);
    const places = (filters: ConstructorParameters<typeof AccessLogQuery>[0], descending = true) => {
      const query = new AccessLogQuery(filters);
      const visited: number[] = [];
      eachMatch(segment, query.rowTests(segment), descending, (place) => {
        visited.push(place);
        return false;
      });
      return { visited, counted: countMatches(segment, query.rowTests(segment)) };
    };
    expect(places({})).toEqual({ visited: [3, 2, 1, 0], counted: 4 });
    expect(places({}, false).visited).toEqual([0, 1, 2, 3]);
    expect(places({ level: 'error' })).toEqual({ visited: [3, 0], counted: 2 });
    expect(places({ search: '/api/admin' })).toEqual({ visited: [2, 1], counted: 2 });
    expect(places({ search: '/api/admin', level: 'warning' })).toEqual({ visited: [1], counted: 1 });
    expect(places({ search: '503' })).toEqual({ visited: [3], counted: 1 });
    expect(places({ from: new Date(at + 1000), to: new Date(at + 2000) })).toEqual({ visited: [2, 1], counted: 2 });
    expect(places({ search: 'nothing' })).toEqual({ visited: [], counted: 0 });

    // A visit that has what it needs stops the walk.
    const first: number[] = [];
    eachMatch(segment, new AccessLogQuery({}).rowTests(segment), true, (place) => first.push(place) === 2);
    expect(first).toEqual([3, 2]);
  });

  it('keys a parsed segment by what tells its content apart', () => {
    expect(parsedKey(head())).not.toBe(parsedKey(head({ row_count: 101 })));
    expect(parsedKey(head())).not.toBe(parsedKey(head({ first_at: new Date(at + 1) })));
  });

  it('caches a count only when it is past the cap, until the cache is cleared', async () => {
    const cache = new Cache<number>({ max: 10, ttlMs: 60_000 });
    let counted = 0;
    const count = (n: number) => () => Promise.resolve((counted++, n));
    expect(await countPastCap(cache, 'small', count(3))).toBe(3);
    expect(await countPastCap(cache, 'small', count(4))).toBe(4);
    expect(await countPastCap(cache, 'big', count(COUNT_CAP + 1))).toBe(COUNT_CAP + 1);
    expect(await countPastCap(cache, 'big', count(5))).toBe(COUNT_CAP + 1);
    expect(counted).toBe(3);
    cache.clear();
    expect(await countPastCap(cache, 'big', count(5))).toBe(5);
  });
});
