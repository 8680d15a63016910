import { get as httpGet, IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { asBuffer, createVersion, eventually, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

interface CatalogVersion {
  id: number;
  version: string;
  is_latest: 0 | 1;
  release_date: string;
  has_files: boolean;
  distribution_files: Array<{ id: number; version_id: number; version: string }>;
}

interface CatalogPage {
  success: boolean;
  data: CatalogVersion[];
  meta: { total: number; page: number; limit: number; pages: number };
}

const PATHS = ['/api/client/versions', '/api/versions'];

describe(`client catalog paging (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let client: string;
  /** Version ids in the catalog's order, as the database holds them. */
  let expectedOrder: number[];
  /** Files per version id, as uploaded. */
  const filesOf = new Map<number, number[]>();
  let appName: string;
  let productsBeforeAnyVersion: string[];
  let requestsBeforeAnyVersion: Array<{ status: number; message: string }>;
  let optionsBeforeAnyVersion: unknown;
  let expectedProducts: string[];

  const catalog = async (path: string, query: Record<string, string | number> = {}): Promise<CatalogPage> =>
    (await t.api().get(path).query(query).set(bearer(client)).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    client = (await t.signUpClient()).token;
    appName = (await t.api().get('/api/settings').set(bearer(client)).expect(200)).body.data.app_info.name;
    productsBeforeAnyVersion = (await t.api().get('/api/licenses/products').set(bearer(client)).expect(200)).body.data;
    optionsBeforeAnyVersion = (await t.api().get('/api/licenses/options').set(bearer(client)).expect(200)).body.data;
    requestsBeforeAnyVersion = [];
    for (const body of [
      { license_type: 'trial', product_name: `${appName} v1.0.0` },
      { license_type: 'paid', product_name: `${appName} v1.0.0`, max_activations: 1, duration_months: 1 },
    ]) {
      const response = await t.api().post('/api/licenses').set(bearer(client)).send(body);
      requestsBeforeAnyVersion.push({ status: response.status, message: response.body.message });
    }
    // 13 versions: release dates out of creation order, two pairs on the same day (the id decides), and the
    // latest one neither the newest release nor the last created.
    const dates = ['2025-03-01', '2025-01-10', '2025-05-20', '2025-05-20', '2025-02-14', '2025-07-01', '2025-04-04'];
    for (let i = 0; i < 13; i++) {
      const version = await createVersion(t, `4.${i}.0`, { release_date: dates[i % dates.length], is_latest: i === 4 });
      // Every third version has no files; the others one to three.
      const count = i % 3 === 2 ? 0 : (i % 3) + 1 + (i % 2);
      const ids: number[] = [];
      for (let f = 0; f < count; f++) {
        const file = await uploadFile(t, {
          version_id: version.id,
          name: `streamhub-4.${i}.0-${f}.deb`,
          architecture: ['x64', 'arm64', 'x86'][f],
        });
        ids.push(file.id);
      }
      filesOf.set(version.id, ids);
    }
    const rows: Array<{ id: number | string }> = await t.dataSource.query('SELECT id FROM versions ORDER BY version_order DESC, id DESC');
    expectedOrder = rows.map((row) => Number(row.id));
    const numbers: Array<{ version: string }> = await t.dataSource.query(
      'SELECT version FROM versions ORDER BY version_order DESC, id DESC',
    );
    expectedProducts = numbers.map((row) => `${appName} v${row.version}`);
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it.each(PATHS)('%s answers the first 10 versions by default, newest semantic version first, with the paging figures', async (path) => {
    const body = await catalog(path);
    expect(body.success).toBe(true);
    expect(body.meta).toEqual({ total: 13, page: 1, limit: 10, pages: 2 });
    expect(body.data.map((version) => version.id)).toEqual(expectedOrder.slice(0, 10));
    // 4.12.0 sorts above 4.4.0 (not as text), and the latest flag is carried but no longer decides the order.
    expect(body.data[0]).toMatchObject({ version: '4.12.0', is_latest: 0 });
    expect(body.data.filter((version) => version.is_latest === 1).map((version) => version.version)).toEqual(['4.4.0']);
  });

  it.each(PATHS)('%s pages through every version once, in the same order, by semantic version whatever the release date', async (path) => {
    const seen: number[] = [];
    const first = await catalog(path, { page: 1, limit: 4 });
    expect(first.meta).toEqual({ total: 13, page: 1, limit: 4, pages: 4 });
    for (let page = 1; page <= first.meta.pages; page++) {
      const body = await catalog(path, { page, limit: 4 });
      expect(body.meta.page).toBe(page);
      expect(body.data.length).toBe(page < 4 ? 4 : 1);
      seen.push(...body.data.map((version) => version.id));
    }
    expect(seen).toEqual(expectedOrder);
    const numbers = (await Promise.all([1, 2, 3, 4].map((page) => catalog(path, { page, limit: 4 }))))
      .flatMap((body) => body.data)
      .map((version) => version.version);
    expect(numbers).toEqual(Array.from({ length: 13 }, (_, i) => `4.${12 - i}.0`));
  });

  it("carries each of the page's versions with exactly its own files, and no other version's", async () => {
    const body = await catalog('/api/client/versions', { page: 2, limit: 5 });
    expect(body.data.map((version) => version.id)).toEqual(expectedOrder.slice(5, 10));
    for (const version of body.data) {
      const own = filesOf.get(version.id) ?? [];
      expect(version.distribution_files.map((file) => file.id).sort((a, b) => a - b)).toEqual([...own].sort((a, b) => a - b));
      expect(version.distribution_files.every((file) => file.version_id === version.id && file.version === version.version)).toBe(true);
      expect(version.has_files).toBe(own.length > 0);
    }
    expect(body.data.some((version) => version.has_files) && body.data.some((version) => !version.has_files)).toBe(true);
  });

  it('answers a page past the end with no versions and the true total', async () => {
    const body = await catalog('/api/client/versions', { page: 99, limit: 50 });
    expect(body.data).toEqual([]);
    expect(body.meta).toEqual({ total: 13, page: 99, limit: 50, pages: 1 });
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ page: -1 }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ page: 1_000_001 }, 'page'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 51 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
  ])('refuses %p with a 400 naming the field', async (query, field) => {
    for (const path of PATHS) {
      const response = await t.api().get(path).query(query).set(bearer(client)).expect(400);
      expect(Object.keys(response.body.errors)).toEqual([field]);
    }
  });

  it('refuses unknown query parameters with a 400', async () => {
    const response = await t.api().get('/api/client/versions').query({ page: 1, sort: 'version' }).set(bearer(client)).expect(400);
    expect(response.body.errors).toHaveProperty('sort');
  });

  it('sends a page compressed when asked, with an ETag, and 304 to a dashboard that has it', async () => {
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const raw = (encoding: string, etag?: string) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) =>
        httpGet(
          `${base}/api/client/versions?page=1&limit=10`,
          { headers: { Authorization: `Bearer ${client}`, 'Accept-Encoding': encoding, ...(etag ? { 'If-None-Match': etag } : {}) } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.once('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          },
        ).once('error', fail),
      );
    const [br, plain] = await Promise.all([raw('br'), raw('identity')]);
    expect(br.headers['content-encoding']).toBe('br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(plain.headers.etag).toBeTruthy();
    const again = await raw('br', plain.headers.etag);
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another page is another answer.
    const second = await t.api().get('/api/client/versions').query({ page: 2, limit: 10 }).set(bearer(client)).expect(200);
    expect(second.headers.etag).not.toBe(plain.headers.etag);
  });

  it('gives the dialogs every version as a product name, newest version first, and nothing else', async () => {
    const response = await t.api().get('/api/licenses/products').set(bearer(client)).expect(200);
    expect(response.body).toEqual({ success: true, data: expectedProducts });
    expect(response.body.data[0]).toBe(`${appName} v4.12.0`);
  });

  it('offers no product and refuses trials and purchases, saying why, until the first version exists', async () => {
    expect(productsBeforeAnyVersion).toEqual([]);
    const why = 'No release is available yet: a license can be requested once the first version is published.';
    expect(requestsBeforeAnyVersion).toEqual([
      { status: 409, message: why },
      { status: 409, message: why },
    ]);
    expect(optionsBeforeAnyVersion).toEqual({ trial: { available: false, reason: why }, purchase: { available: false, reason: why } });
    const after = (await t.api().get('/api/licenses/options').set(bearer(client)).expect(200)).body.data;
    expect(after).toEqual({ trial: { available: true, reason: null }, purchase: { available: true, reason: null } });
    expect((await t.api().get('/api/licenses').set(bearer(client)).expect(200)).body.data).toEqual([]);
  });

  it('needs a session for the catalog and the product choices', async () => {
    for (const path of [...PATHS, '/api/licenses/products']) await t.api().get(path).expect(401);
  });
});

describe(`client catalog kept in memory (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let client: string;
  let admin: string;
  let appName: string;

  const firstPage = async (): Promise<CatalogPage> =>
    (await t.api().get('/api/client/versions').set(bearer(client)).expect(200)).body as CatalogPage;
  const products = async (): Promise<string[]> =>
    (await t.api().get('/api/licenses/products').set(bearer(client)).expect(200)).body.data as string[];
  const filesOfVersion = async (id: number) => (await firstPage()).data.find((version) => version.id === id)?.distribution_files ?? [];

  beforeAll(async () => {
    t = await startTestApp();
    client = (await t.signUpClient()).token;
    admin = await t.adminToken();
    appName = (await t.api().get('/api/settings').set(bearer(client)).expect(200)).body.data.app_info.name;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it("shows every write of this instance at once: versions, files, renames, downloads' counts, deletions", async () => {
    const first = await createVersion(t, '5.0.0', { release_date: '2025-01-01', is_latest: true });
    const file = await uploadFile(t, { version_id: first.id, name: 'streamhub-5.0.0.deb' });
    // Read (and so kept) before each change below.
    expect((await firstPage()).data.map((version) => version.version)).toEqual(['5.0.0']);
    expect(await products()).toEqual([`${appName} v5.0.0`]);

    const second = await createVersion(t, '5.1.0', { release_date: '2025-02-01', is_latest: true });
    expect((await firstPage()).data.map((version) => version.version)).toEqual(['5.1.0', '5.0.0']);
    expect(await products()).toEqual([`${appName} v5.1.0`, `${appName} v5.0.0`]);

    const added = await uploadFile(t, { version_id: second.id, name: 'streamhub-5.1.0.deb' });
    expect((await filesOfVersion(second.id)).map((each) => each.id)).toEqual([added.id]);

    await t.api().put(`/api/admin/versions/${second.id}`).set(bearer(admin)).send({ version: '5.2.0' }).expect(200);
    const renamed = (await firstPage()).data[0];
    expect(renamed.version).toBe('5.2.0');
    expect(renamed.distribution_files.map((each) => each.version)).toEqual(['5.2.0']);
    expect(await products()).toEqual([`${appName} v5.2.0`, `${appName} v5.0.0`]);

    const counted = async () => ((await filesOfVersion(first.id))[0] as unknown as { download_count: number }).download_count;
    expect(await counted()).toBe(0);
    await t.api().get(`/api/download/${file.id}`).set(bearer(client)).buffer(true).parse(asBuffer).expect(200);
    expect(await counted()).toBe(1);

    await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
    expect(await filesOfVersion(first.id)).toEqual([]);
    await t.api().delete(`/api/admin/versions/${first.id}`).set(bearer(admin)).expect(200);
    expect((await firstPage()).data.map((version) => version.version)).toEqual(['5.2.0']);
    expect(await products()).toEqual([`${appName} v5.2.0`]);
  });

  it("shows another instance's writes within seconds", async () => {
    const before = await firstPage();
    // Another instance's change: straight into the database, which this instance does not see being written.
    await t.dataSource.query('UPDATE versions SET changelog = ? WHERE id = ?', ['Written elsewhere', before.data[0].id]);
    await eventually(
      "the catalog to show the other instance's change",
      async () => ((await firstPage()).data[0] as unknown as { changelog: string }).changelog === 'Written elsewhere',
    );
  });
});
