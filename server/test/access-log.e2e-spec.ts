import { COUNT_CAP, LogFilters } from '../src/common/log-listing';
import { PreparedSql } from '../src/database/prepared-sql';
import { AccessLogRow, AccessLogService, NewAccessLogRow } from '../src/modules/access-log/access-log.service';
import { typedAccessRows } from './support/access-rows';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The access log listed against a plain model: every page of every filter, search and order must be what filtering
 * the stored rows in memory gives, with its exact total (the log is far below the sizes where a total is
 * estimated). The searched texts are ASCII, which both engines compare case aside as the model does (beyond ASCII,
 * each engine's collation decides, as for the other logs).
 */
describe(`access log (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let service: AccessLogService;
  const stored: NewAccessLogRow[] = [];
  const start = Date.UTC(2026, 10, 1);

  const rowAt = (i: number): NewAccessLogRow => {
    const path = [`/api/Items/${i % 37}`, '/api/license-server/validate', `/api/admin/users/${i % 11}`, '/api/me'][i % 4];
    return {
      method: i % 4 === 1 ? 'POST' : 'GET',
      route: { 0: '/api/items/:id', 1: '/api/license-server/validate', 2: '/api/admin/users/:id', 3: '/api/me' }[i % 4]!,
      path,
      status: [200, 200, 200, 201, 304, 401, 404, 429, 500, 503][i % 10],
      duration_ms: i % 97,
      bytes_out: i * 3,
      user_id: i % 3 ? (i % 13) + 1 : null,
      user_email: i % 3 ? `User${(i % 13) + 1}@Example.test` : null,
      ip_address: i % 5 ? `10.${i % 3}.${i % 7}.${i % 250}` : i % 2 ? '2001:DB8::1' : null,
      user_agent: i % 50 ? 'agent' : `long ${'é'.repeat(490)}`,
      created_at: new Date(start + i * 1000),
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    service = t.app.get(AccessLogService);
    await service.clear();
    let i = 0;
    for (const size of [1, 7, 500, 333, 2, 499, 120, 40, 260, 1]) {
      const batch = Array.from({ length: size }, () => rowAt(i++));
      await service.storeRows(batch);
      stored.push(...batch);
    }
    // A prefix of many distinct paths (on MariaDB, more than a search reads value by value).
    const many = Array.from({ length: 6_000 }, (_, k) => ({ ...rowAt(i + k), path: `/api/many/${k}`, route: '/api/many/:n' }));
    await service.storeRows(many);
    stored.push(...many);
  });
  afterAll(() => t.close());

  /** What the list must give: the stored rows filtered in memory, newest (or oldest) first, paged. */
  function model(filters: LogFilters) {
    const term = filters.search?.trim().toLowerCase();
    const user = filters.user?.trim().toLowerCase();
    const level = (status: number) => (status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info');
    const matches = stored.filter(
      (row) =>
        (!filters.from || row.created_at >= filters.from) &&
        (!filters.to || row.created_at <= filters.to) &&
        (!filters.level || level(row.status) === filters.level) &&
        (!user || !!row.user_email?.toLowerCase().startsWith(user)) &&
        (!term ||
          [row.path, row.route, row.ip_address, row.user_email].some((value) => value?.toLowerCase().startsWith(term)) ||
          String(row.status) === term),
    );
    if (filters.order !== 'asc') matches.reverse();
    const limit = filters.limit ?? 25;
    const page = filters.page ?? 1;
    return { rows: matches.slice((page - 1) * limit, page * limit), total: matches.length };
  }

  const withoutId = ({ id: _id, ...row }: AccessLogRow) => row;

  const cases: LogFilters[] = [
    {},
    { order: 'asc' },
    { page: 3, limit: 100 },
    { page: 17, limit: 100, order: 'asc' },
    { level: 'error' },
    { level: 'warning', page: 2, limit: 50 },
    { level: 'info', order: 'asc', page: 4, limit: 30 },
    { level: 'debug' },
    { from: new Date(start + 100_000), to: new Date(start + 900_000) },
    { from: new Date(start + 1_000_500), order: 'asc', page: 2, limit: 10 },
    { search: '/api/items/3' },
    { search: '/API/ITEMS/1', page: 2, limit: 7 },
    { search: '/api/admin/users/:' },
    { search: '/api/license-server/validate', page: 9, limit: 50 },
    { search: '10.2.5.' },
    { search: '2001:db8' },
    { search: 'user7@' },
    { search: '404' },
    { search: '500', order: 'asc', level: 'error' },
    { search: 'nothing-starts-so' },
    { search: '/api/many/' },
    { search: '/api/many/1', page: 3, limit: 50 },
    { search: '/api/many/', level: 'error', order: 'asc', page: 2 },
    { search: ' /api/me ' },
    { user: 'user1', page: 2, limit: 20 },
    { user: 'User12@example.test', level: 'warning' },
    { user: 'user3', search: '/api/me' },
    { user: 'user3', level: 'error' },
    { search: '/api/me', level: 'info', page: 2, limit: 10 },
    { search: '10.1.', level: 'warning', order: 'asc' },
    { search: '/api/items', from: new Date(start + 200_000), to: new Date(start + 1_200_000), order: 'asc' },
    // Fewer rows pass the filters than a search's first look reads: that look's count is the total.
    { search: '/api/me', level: 'warning', from: new Date(start + 2_000_000), to: new Date(start + 2_400_000) },
  ];

  it.each(cases.map((filters) => [JSON.stringify(filters), filters]))(
    'lists %s as the stored rows filtered give',
    async (_name, filters) => {
      const page = await service.list(filters);
      const expected = model(filters);
      expect(page.rows.map(withoutId)).toEqual(expected.rows);
      expect({ total: page.total, capped: page.capped }).toEqual({ total: expected.total, capped: false });
      expect(await service.list(filters)).toEqual(page);
    },
  );

  it('gives every row one id, the same on every page, and exports every matching row oldest first', async () => {
    const all = await service.list({ limit: 100, page: 1, order: 'asc' });
    const ids = new Set<number>();
    for (let page = 1; page <= Math.ceil(stored.length / 100); page++) {
      for (const row of (await service.list({ limit: 100, page, order: 'asc' })).rows) ids.add(row.id);
    }
    expect(ids.size).toBe(stored.length);
    expect(all.rows[0].id).toBe(Math.min(...ids));

    const exported: Array<Record<string, unknown>> = [];
    for await (const batch of service.batches({ search: '/api/me' })) exported.push(...batch);
    const expected = model({ search: '/api/me', order: 'asc', limit: stored.length });
    expect(typedAccessRows(exported).map(withoutId)).toEqual(expected.rows);
  });

  it('counts past the cap as more than it, and prunes the rows older than the cut', async () => {
    const later = Date.UTC(2026, 10, 20);
    const many = Array.from({ length: COUNT_CAP + 600 }, (_, i) => ({ ...rowAt(i), created_at: new Date(later + i) }));
    await service.storeRows(many);
    expect(await service.list({ limit: 5 })).toMatchObject({ total: COUNT_CAP, capped: true });
    const before = model({ search: '/api/me' }).total;
    expect(await service.list({ limit: 5, search: '/api/me' })).toMatchObject({ total: before + 2_650, capped: false });

    // Everything stored before `later` goes; the rows from `later` on stay.
    expect(await service.prune(new Date(later))).toBe(stored.length);
    const left = await service.list({ limit: 5, order: 'asc' });
    expect(left.rows[0].created_at).toEqual(new Date(later));
    await service.clear();
    expect(await service.list({})).toMatchObject({ rows: [], total: 0, capped: false });
  });

  it('finds a status behind newer rows without it, counts it past the cap, and finds an e-mail starting with its digits', async () => {
    await service.clear();
    const at = Date.UTC(2026, 10, 25);
    let i = 0;
    const row = (status: number) => ({ ...rowAt(i), status, created_at: new Date(at + i++) });
    // More rows answered 500 than the cap, then newer ones answered 200 only.
    const errors = Array.from({ length: 13_200 }, () => row(500));
    await service.storeRows(errors);
    await service.storeRows(Array.from({ length: 2_000 }, () => row(200)));

    const page = await service.list({ search: '500', page: 2, limit: 30 });
    expect(page.rows.map(withoutId)).toEqual([...errors].reverse().slice(30, 60));
    expect(page).toMatchObject({ total: COUNT_CAP, capped: true });
    expect(await service.list({ search: '500', level: 'error', limit: 5 })).toMatchObject({ total: COUNT_CAP, capped: true });

    // An e-mail starting with the digits, in a newer row without the status, matches the search too.
    const operator = { ...row(200), user_email: '500-ops@example.test' };
    await service.storeRows([operator, ...Array.from({ length: 49 }, () => row(200))]);
    const withOperator = await service.list({ search: '500', limit: 30 });
    expect(withOperator.rows.map(withoutId)).toEqual([operator, ...[...errors].reverse().slice(0, 29)]);
    expect(withOperator).toMatchObject({ total: COUNT_CAP, capped: true });
    await service.clear();
  });

  it('keeps a count past the cap for its filters, and counts again once this process pruned or cleared rows', async () => {
    const old = Date.UTC(2026, 9, 1);
    const recent = Date.UTC(2026, 10, 26);
    const fill = async () => {
      await service.clear();
      await service.storeRows([0, 1, 2].map((i) => ({ ...rowAt(i), status: 500, created_at: new Date(old + i) })));
      // More rows than a search's first look reads, none of them answered 500.
      await service.storeRows(Array.from({ length: 600 }, (_, i) => ({ ...rowAt(i), status: 503, created_at: new Date(old + 10 + i) })));
      await service.storeRows(
        Array.from({ length: COUNT_CAP + 500 }, (_, k) => ({ ...rowAt(k), status: 500, created_at: new Date(recent + k) })),
      );
    };
    // The recent rows removed behind the service's back, as another instance's prune would.
    const removeRecent = () => PreparedSql.for(t.dataSource).run('DELETE FROM access_logs WHERE created_at >= ?', [new Date(recent)]);
    const capped = { total: COUNT_CAP, capped: true };
    const oldest = (page: { rows: AccessLogRow[] }) => page.rows.map((row) => row.created_at.getTime());

    await fill();
    for (const filters of [{}, { search: '500' }, { search: '500', level: 'error' as const }]) {
      expect(await service.list({ ...filters, limit: 5 })).toMatchObject(capped);
    }
    await removeRecent();
    // The page is read again; its count is the one kept, for each filter that found it (not for others).
    const kept = await service.list({ search: '500', limit: 5 });
    expect(kept).toMatchObject(capped);
    expect(oldest(kept)).toEqual([old + 2, old + 1, old]);
    expect(await service.list({ limit: 5, page: 200 })).toMatchObject({ rows: [], ...capped });
    expect(await service.list({ search: '500', level: 'error', limit: 5 })).toMatchObject(capped);
    expect(await service.list({ search: '500', level: 'warning', limit: 5 })).toMatchObject({ total: 0, capped: false });
    // A prune forgets every kept count.
    expect(await service.prune(new Date(old + 3))).toBe(3);
    expect(await service.list({ search: '500', limit: 5 })).toMatchObject({ rows: [], total: 0, capped: false });
    expect(await service.list({ limit: 5 })).toMatchObject({ total: 600, capped: false });

    // So does a clear.
    await fill();
    expect(await service.list({ search: '500', limit: 5 })).toMatchObject(capped);
    await removeRecent();
    expect(await service.list({ search: '500', limit: 5 })).toMatchObject(capped);
    await service.clear();
    expect(await service.list({ search: '500', limit: 5 })).toMatchObject({ rows: [], total: 0, capped: false });
    expect(await service.list({ limit: 5 })).toMatchObject({ rows: [], total: 0, capped: false });
  });
});
