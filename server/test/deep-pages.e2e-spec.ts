import { LicenseEntity } from '../src/modules/licenses/license.entity';
import { ADMIN_PRODUCT, inDays } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** More rows than the offset from which deep pages start from a kept mark (pagination.ts, MARKED_FROM_OFFSET). */
const ROWS = 1_300;
const LIMIT = 25;
/** Pages past offset 1,000: 41 starts at 1,000. */
const DEEP = [41, 42, 45, 52];

describe(`deep pages from kept marks (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  /** Every seeded license as [created_at ms, id]. */
  let rows: Array<[number, number]>;

  const page = async (page: number, order: 'asc' | 'desc' = 'desc') => {
    const response = await t.api().get('/api/admin/licenses').query({ page, limit: LIMIT, order }).set(bearer(admin)).expect(200);
    return (response.body.data as LicenseEntity[]).map((license) => license.id);
  };
  /** The page as OFFSET would give it: (created_at, id) in the order, both descending or both ascending. */
  const expected = (page: number, order: 'asc' | 'desc' = 'desc') => {
    const sorted = [...rows].sort(([at, id], [bt, bid]) => at - bt || id - bid).map(([, id]) => id);
    if (order === 'desc') sorted.reverse();
    return sorted.slice((page - 1) * LIMIT, page * LIMIT);
  };
  const reload = async () => {
    const all = await t.dataSource.getRepository(LicenseEntity).find({ select: { id: true, created_at: true } });
    rows = all.map((license) => [license.created_at.getTime(), license.id]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    // Three rows per creation time, so pages also cut through ties (broken by id), and ids not in creation order.
    const start = Date.parse('2026-01-01T00:00:00Z');
    const seeded = Array.from({ length: ROWS }, (_, i) => ({
      license_key: `DEEP-${String(i).padStart(6, '0')}`,
      product_name: ADMIN_PRODUCT,
      user_email: `deep${i}@portal.test`,
      status: 'active' as const,
      is_trial: false,
      expires_at: new Date(inDays(365)),
      max_activations: 1,
      current_activations: 0,
      created_at: new Date(start + Math.floor(((i * 7919) % ROWS) / 3) * 1000),
    }));
    for (let i = 0; i < seeded.length; i += 200) await t.dataSource.getRepository(LicenseEntity).insert(seeded.slice(i, i + 200));
    await reload();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('gives the same deep pages when read again, and the pages after them, as counting off every row would, both ways', async () => {
    for (const order of ['desc', 'asc'] as const) {
      // First reads count off and mark; the second round reads from the marks (the same page, and later pages).
      for (let round = 0; round < 2; round++) {
        for (const n of DEEP) expect([order, n, await page(n, order)]).toEqual([order, n, expected(n, order)]);
      }
    }
  });

  it('shows a license created here at once: its own write drops the marks', async () => {
    await page(45);
    await t
      .api()
      .post('/api/admin/licenses')
      .set(bearer(admin))
      .send({ product_name: ADMIN_PRODUCT, user_email: 'newest@portal.test', expires_at: inDays(30) })
      .expect(201);
    await reload();
    expect(await page(45)).toEqual(expected(45));
  });

  it('reads a page right when the marked row was deleted elsewhere (not through this instance)', async () => {
    const first = (await page(42))[0];
    await page(42);
    // Another instance's delete: straight in the database, so this one keeps its mark of the row.
    await t.dataSource.getRepository(LicenseEntity).delete({ id: first });
    await reload();
    expect(await page(42)).toEqual(expected(42));
    expect(await page(45)).toEqual(expected(45));
  });
});

describe(`deep pages of rows imported with one creation time (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    // As an import from an older system writes them: straight into the table, every row with the same created_at.
    const importedAt = new Date('2025-03-01T12:00:00Z');
    const seeded = Array.from({ length: ROWS }, (_, i) => ({
      license_key: `IMPORT-${String(i).padStart(6, '0')}`,
      product_name: ADMIN_PRODUCT,
      user_email: `import${i}@portal.test`,
      status: 'active' as const,
      is_trial: false,
      expires_at: new Date(inDays(365)),
      max_activations: 1,
      current_activations: 0,
      created_at: importedAt,
    }));
    for (let i = 0; i < seeded.length; i += 200) await t.dataSource.getRepository(LicenseEntity).insert(seeded.slice(i, i + 200));
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('orders them by id, and reads the same deep pages from the marks as by counting off', async () => {
    const ids = (await t.dataSource.getRepository(LicenseEntity).find({ select: { id: true } })).map((license) => license.id);
    for (const order of ['desc', 'asc'] as const) {
      const sorted = [...ids].sort((a, b) => (order === 'desc' ? b - a : a - b));
      for (let round = 0; round < 2; round++) {
        for (const n of DEEP) {
          const response = await t.api().get('/api/admin/licenses').query({ page: n, limit: LIMIT, order }).set(bearer(admin)).expect(200);
          const shown = (response.body.data as LicenseEntity[]).map((license) => license.id);
          expect([order, round, n, shown]).toEqual([order, round, n, sorted.slice((n - 1) * LIMIT, n * LIMIT)]);
        }
      }
    }
  });
});
