import type { AccessLogRow } from '../src/modules/access-log/access-log.entity';
import type { NewAccessLogRow } from '../src/modules/access-log/access-log-segments';
import { PreparedSql } from '../src/database/prepared-sql';
import { AccessLogRepository } from '../src/modules/access-log/access-log.repository';
import { writeSegments } from '../src/modules/access-log/access-log-writer';
import { COUNT_CAP } from '../src/modules/access-log/access-log.constants';
import { AccessLogFilters, AccessLogService } from '../src/modules/access-log/access-log.service';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The access log in segments, listed against a plain model: every page of every filter, search and order must be
 * what filtering the stored rows in memory gives, with its exact total (the log is far below the sizes where a
 * total is estimated). Rows are stored in batches of many sizes, some with long values that split a batch into
 * several segments by bytes, so pages and counts cross segments of every shape.
 */
describe(`access log in segments (${process.env.TEST_DB})`, () => {
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
      // Every 50th row is long: a batch of them no longer fits one segment's 64,000 bytes.
      user_agent: i % 50 ? 'agent' : `long ${'é'.repeat(490)}`,
      created_at: new Date(start + i * 1000),
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    service = t.app.get(AccessLogService);
    await service.clear();
    let i = 0;
    // Many small batches too: a walk reads its segments' heads in several reads.
    for (const size of [1, 7, 500, 333, 2, 499, 120, 40, ...Array.from({ length: 300 }, (_, k) => 1 + (k % 3)), 260, 1]) {
      const batch = Array.from({ length: size }, () => rowAt(i++));
      // A batch of long rows only: split into segments by bytes.
      if (size === 260) for (const row of batch) row.user_agent = `long ${'é'.repeat(490)}`;
      await service.storeRows(batch);
      stored.push(...batch);
    }
    // A prefix of more distinct paths than a search reads term entries: found by walking the segments.
    const many = Array.from({ length: 6_000 }, (_, k) => ({ ...rowAt(i + k), path: `/api/many/${k}`, route: '/api/many/:n' }));
    await service.storeRows(many);
    stored.push(...many);
    i += many.length;
    // Texts that MariaDB's collation compares as equal, which the search must still tell apart.
    const lookalikes = ['/api/Café/1', '/api/cafe/2', '/api/CAFÉ/3', '/api/cafe /4'].map((path, k) => ({
      ...rowAt(i + k),
      path,
      route: '/api/lookalike/:id',
    }));
    await service.storeRows(lookalikes);
    stored.push(...lookalikes);
  });
  afterAll(() => t.close());

  /** What the list must give: the stored rows filtered in memory, newest (or oldest) first, paged. */
  function model(filters: AccessLogFilters) {
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

  const cases: AccessLogFilters[] = [
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
    { search: '/api/café' },
    { search: '/API/CAFE' },
    { search: '/api/cafe ' },
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
      // Asked again, from the segments kept parsed and what they found.
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
    expect(exported.map((row) => withoutId(row as AccessLogRow))).toEqual(expected.rows);
  });

  it("appends a quiet log's few rows a write to the segment it wrote last, keeping the ids it gave, until it holds 500", async () => {
    const repository = t.app.get(AccessLogRepository);
    const segments = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM access_log_segments'))[0].n);
    const before = await segments();
    const at = Date.UTC(2026, 10, 10);
    const quiet = (from: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({ ...rowAt(from + k), created_at: new Date(at + (from + k) * 1000) }));
    let open = await writeSegments(repository, quiet(0, 3), null);
    const first = (await service.list({ from: new Date(at), to: new Date(at + 10_000_000), order: 'asc' })).rows;
    let written = 3;
    for (; written < 600; written += 7) open = await writeSegments(repository, quiet(written, 7), open);
    // Two segments: the first took rows while it held fewer than 500.
    expect((await segments()) - before).toBe(2);
    const all = (await service.list({ from: new Date(at), to: new Date(at + 10_000_000), order: 'asc', limit: 100, page: 1 })).rows;
    expect(all.slice(0, 3)).toEqual(first);
    const total = await service.list({ from: new Date(at), to: new Date(at + 10_000_000) });
    expect(total.total).toBe(written);
    stored.push(...quiet(0, written));
  });

  it('counts past the cap as more than it, and prunes whole segments older than the cut', async () => {
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

  it('finds a status in every older segment past newer ones without it, and counts it past the cap', async () => {
    await service.clear();
    const at = Date.UTC(2026, 10, 25);
    let i = 0;
    const row = (status: number) => ({ ...rowAt(i), status, created_at: new Date(at + i++) });
    // 220 segments with 60 rows answered 500 each (more than the cap), then 40 newer ones answered 200 only.
    const errors: NewAccessLogRow[] = [];
    for (let segment = 0; segment < 220; segment++) {
      const batch = Array.from({ length: 60 }, () => row(500));
      await service.storeRows(batch);
      errors.push(...batch);
    }
    for (let segment = 0; segment < 40; segment++) await service.storeRows(Array.from({ length: 50 }, () => row(200)));

    const page = await service.list({ search: '500', page: 2, limit: 30 });
    expect(page.rows.map(withoutId)).toEqual([...errors].reverse().slice(30, 60));
    expect(page).toMatchObject({ total: COUNT_CAP, capped: true });
    expect(await service.list({ search: '500', level: 'error', limit: 5 })).toMatchObject({ total: COUNT_CAP, capped: true });

    // An e-mail starting with the digits, in a newer segment without the status, matches the search too.
    const operator = { ...row(200), user_email: '500-ops@example.test' };
    await service.storeRows([operator, ...Array.from({ length: 49 }, () => row(200))]);
    const withOperator = await service.list({ search: '500', limit: 30 });
    expect(withOperator.rows.map(withoutId)).toEqual([operator, ...[...errors].reverse().slice(0, 29)]);
    expect(withOperator).toMatchObject({ total: COUNT_CAP, capped: true });
    await service.clear();
  });

  it('passes by the newer segments without a common path unread, to find it in every older one', async () => {
    await service.clear();
    const at = Date.UTC(2026, 10, 26);
    let i = 0;
    const row = (path: string) => ({ ...rowAt(i), path, route: path, created_at: new Date(at + i++) });
    // 220 segments of 120 rows calling one path (more matches than the cap in its first term entries read: a common
    // term), then 10 full newer segments of another path, as a busy portal's heartbeats would be.
    const users: NewAccessLogRow[] = [];
    for (let segment = 0; segment < 220; segment++) {
      const batch = Array.from({ length: 120 }, () => row('/api/admin/users'));
      await service.storeRows(batch);
      users.push(...batch);
    }
    for (let segment = 0; segment < 10; segment++)
      await service.storeRows(Array.from({ length: 2_000 }, () => row('/api/admin/logs/access')));
    const newer: number[] = (await t.dataSource.query('SELECT id FROM access_log_segments ORDER BY id DESC LIMIT 10')).map(
      (segment: { id: unknown }) => Number(segment.id),
    );

    const statements = jest.spyOn(PreparedSql.prototype, 'all');
    try {
      const page = await service.list({ search: '/api/admin/users', page: 2, limit: 20 });
      expect(page.rows.map(withoutId)).toEqual([...users].reverse().slice(20, 40));
      expect(page).toMatchObject({ total: COUNT_CAP, capped: true });
      const opened = statements.mock.calls
        .filter(([statement]) => statement.startsWith('SELECT id, body'))
        .flatMap(([, params]) => (params ?? []).map(Number));
      // Only the first look at the newest rows opens newer ones: the newest (its 2,000 rows are more than that look
      // reads) and the two read ahead of it. The walk through the segments passes by the other seven unread.
      expect(newer.filter((id) => opened.includes(id))).toEqual(newer.slice(0, 3));
    } finally {
      statements.mockRestore();
    }
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
      for (let i = 0; i <= COUNT_CAP; i += 500) {
        await service.storeRows(
          Array.from({ length: 500 }, (_, k) => ({ ...rowAt(i + k), status: 500, created_at: new Date(recent + i + k) })),
        );
      }
    };
    // The recent rows removed behind the store's back, as another instance's prune would.
    const sql = PreparedSql.for(t.dataSource);
    const removeRecent = async () => {
      const segments = await sql.all<{ id: number }>('SELECT id FROM access_log_segments WHERE first_at >= ?', [new Date(recent)]);
      const ids = segments.map((segment) => Number(segment.id));
      const list = ids.map(() => '?').join(', ');
      await sql.run(`DELETE FROM access_log_terms WHERE segment_id IN (${list})`, ids);
      await sql.run(`DELETE FROM access_log_segments WHERE id IN (${list})`, ids);
    };
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
