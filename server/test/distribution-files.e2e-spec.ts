import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countRows, createVersion, eventually, postFile, sha256, someBytes, storedFiles, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

const MAX_UPLOAD_BYTES = 64 * 1024;
const ALLOWED = 'File type not allowed. Allowed types: .exe, .dmg, .pkg, .tar.gz, .zip, .deb, .rpm';

describe(`distribution files (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let v2: { id: number };
  let v3: { id: number };

  const list = async (query: Record<string, string | number> = {}) =>
    (await t.api().get('/api/admin/distribution-files').query(query).set(bearer(admin)).expect(200)).body;
  const snapshot = async () => ({ rows: await countRows(t, 'distribution_files'), files: storedFiles(t) });

  beforeAll(async () => {
    t = await startTestApp({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    admin = await t.adminToken();
    v2 = await createVersion(t, '2.0.0', { release_date: '2025-03-01' });
    v3 = await createVersion(t, '3.0.0', { release_date: '2025-05-01', is_latest: true });
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('upload', () => {
    it('stores the file under a generated key with its SHA-256 and size, and answers success, data, message', async () => {
      const bytes = someBytes(50_000);
      const response = await postFile(t, admin, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'x64',
        bytes,
        name: 'streamhub_3.0.0_amd64.deb',
      }).expect(201);
      expect(response.body).toEqual({
        success: true,
        message: 'File uploaded successfully',
        data: {
          id: expect.any(Number),
          file_name: 'streamhub_3.0.0_amd64.deb',
          file_hash: sha256(bytes),
          file_size: 50_000,
          os_type: 'linux',
          architecture: 'x64',
          version: '3.0.0',
          version_id: v3.id,
          is_latest: 1,
          download_count: 0,
          created_at: expect.any(String),
          download_url: `/api/download/${response.body.data.id}`,
        },
      });
      expect(storedFiles(t)).toEqual([expect.stringMatching(/^files\/[0-9a-f-]{36}\.deb$/)]);
    });

    it('takes a custom file name (UTF-8 welcome) instead of the original one', async () => {
      const file = await uploadFile(t, {
        version_id: v2.id,
        os_type: 'windows',
        name: 'upload.exe',
        file_name: 'StreamHub Setup ä 2.0.exe',
      });
      expect(file.file_name).toBe('StreamHub Setup ä 2.0.exe');
    });

    it.each([
      ['a type not on the list', { name: 'install.sh' }, 415, ALLOWED],
      ['.appimage (hinted at, never allowed)', { name: 'StreamHub.AppImage' }, 415, ALLOWED],
      ['a custom name without an allowed type', { name: 'ok.deb', file_name: 'renamed.txt' }, 415, ALLOWED],
      [
        'a path-traversal custom name',
        { name: 'ok.deb', file_name: '../../../etc/cron.d/evil.deb' },
        400,
        'File name must not contain path separators or ".."',
      ],
      ['a backslash path', { name: 'ok.deb', file_name: '..\\..\\evil.deb' }, 400, 'File name must not contain path separators or ".."'],
      [
        'a control character',
        { name: 'ok.deb', file_name: 'evil\u0007.deb' },
        400,
        'File name must not contain control characters or any of < > : " | ? *',
      ],
      [
        'a hidden-file name',
        { name: 'ok.deb', file_name: '.bashrc.deb' },
        400,
        'File name must not start with a dot, a hyphen or a space, nor end with a space',
      ],
      [
        'an option-like name',
        { name: 'ok.deb', file_name: '-rf.tar.gz' },
        400,
        'File name must not start with a dot, a hyphen or a space, nor end with a space',
      ],
      ['an empty file', { name: 'empty.deb', bytes: Buffer.alloc(0) }, 400, 'Please select a file.'],
      ['no file at all', { bytes: undefined }, 400, 'Please select a file.'],
      [
        'a file over MAX_UPLOAD_BYTES',
        { name: 'big.deb', bytes: someBytes(MAX_UPLOAD_BYTES + 1) },
        413,
        'File too large. The maximum upload size is 64 KB.',
      ],
      ['a missing version', { version_id: undefined }, 400, 'Version is required'],
      ['a missing operating system', { os_type: undefined }, 400, 'Operating system is required'],
      ['an unknown operating system', { os_type: 'beos' }, 400, 'Operating system must be one of windows, linux, macos'],
      ['a missing architecture', { architecture: undefined }, 400, 'Architecture is required'],
      ['an unknown architecture', { architecture: 'sparc' }, 400, 'Architecture must be one of x64, x86, arm64'],
      ['a version that does not exist', { version_id: 99_999 }, 404, 'Version 99999 not found'],
    ])('refuses %s and leaves neither file nor row behind', async (_name, overrides, status, message) => {
      const before = await snapshot();
      const response = await postFile(t, admin, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(2048),
        ...overrides,
      });
      expect({ status: response.status, message: response.body.message }).toEqual({ status, message });
      expect(await snapshot()).toEqual(before);
    });

    it('accepts exactly MAX_UPLOAD_BYTES', async () => {
      const file = await uploadFile(t, { version_id: v2.id, name: 'exact.zip', os_type: 'macos', bytes: someBytes(MAX_UPLOAD_BYTES) });
      expect(file.file_size).toBe(MAX_UPLOAD_BYTES);
    });

    it('refuses a second file of the same name for a version with 409, and stores nothing', async () => {
      const before = await snapshot();
      const response = await postFile(t, admin, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'arm64',
        bytes: someBytes(10),
        name: 'streamhub_3.0.0_amd64.deb',
      });
      expect(response.status).toBe(409);
      expect(response.body.errors.file_name).toEqual(['A file named streamhub_3.0.0_amd64.deb already exists for version 3.0.0']);
      expect(await snapshot()).toEqual(before);
    });

    it('leaves neither file nor row behind when the client aborts mid-upload', async () => {
      const before = await snapshot();
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const boundary = '----portal-test-boundary';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="version_id"\r\n\r\n${v3.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="os_type"\r\n\r\nlinux\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="architecture"\r\n\r\nx64\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="aborted.deb"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n';
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/distribution-files',
        headers: { ...bearer(admin), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 10_000_000 },
      });
      request.on('error', () => undefined);
      request.write(head);
      request.write(someBytes(30_000));
      // The upload is under way once its temporary file exists; then the client goes away.
      await eventually('the upload is being written', () => storedFiles(t).some((path) => path.startsWith('.tmp/')));
      request.destroy();
      await eventually('the temporary file is gone', () => !storedFiles(t).some((path) => path.startsWith('.tmp/')));
      expect(await snapshot()).toEqual(before);
      // The server is fine afterwards.
      await t.api().get('/api/admin/distribution-files/stats').set(bearer(admin)).expect(200);
    });

    it('is for admins only', async () => {
      const client = await t.signUpClient();
      const before = await snapshot();
      await postFile(t, client.token, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(10),
        name: 'x.deb',
      }).expect(403);
      await t.api().get('/api/admin/distribution-files').set(bearer(client.token)).expect(403);
      await t.api().get('/api/admin/distribution-files/stats').set(bearer(client.token)).expect(403);
      await t.api().get('/api/admin/distribution-files/versions').set(bearer(client.token)).expect(403);
      await t.api().delete('/api/admin/distribution-files/1').set(bearer(client.token)).expect(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('list, stats and versions', () => {
    beforeAll(async () => {
      await uploadFile(t, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'arm64',
        name: 'streamhub_3.0.0_arm64.deb',
        bytes: someBytes(3000),
      });
      await uploadFile(t, {
        version_id: v3.id,
        os_type: 'linux',
        architecture: 'x64',
        name: 'streamhub-3.0.0.x86_64.rpm',
        bytes: someBytes(4000),
      });
      await uploadFile(t, {
        version_id: v3.id,
        os_type: 'macos',
        architecture: 'arm64',
        name: 'StreamHub-3.0.0.dmg',
        bytes: someBytes(5000),
      });
    });

    it('lists newest first with paging and totals', async () => {
      const all = await list();
      expect(all.meta).toEqual({ total: 6, page: 1, limit: 25, pages: 1 });
      expect(all.data[0].file_name).toBe('StreamHub-3.0.0.dmg');
      const page = await list({ limit: 4, page: 2 });
      expect(page.meta).toEqual({ total: 6, page: 2, limit: 4, pages: 2 });
      expect(page.data).toHaveLength(2);
    });

    it('filters by version and platform, searches file name and version, and sorts', async () => {
      expect((await list({ version_id: v2.id })).data.map((f: { file_name: string }) => f.file_name).sort()).toEqual([
        'StreamHub Setup ä 2.0.exe',
        'exact.zip',
      ]);
      expect((await list({ os_type: 'linux' })).meta.total).toBe(3);
      expect((await list({ os_type: 'linux', architecture: 'arm64' })).data.map((f: { file_name: string }) => f.file_name)).toEqual([
        'streamhub_3.0.0_arm64.deb',
      ]);
      expect((await list({ search: 'rpm' })).data.map((f: { file_name: string }) => f.file_name)).toEqual(['streamhub-3.0.0.x86_64.rpm']);
      expect((await list({ search: '2.0.0' })).meta.total).toBe(2);
      const bySize = await list({ sort: 'file_size', order: 'asc' });
      expect(bySize.data.map((f: { file_size: number }) => f.file_size)).toEqual(
        [...bySize.data.map((f: { file_size: number }) => f.file_size)].sort((a, b) => a - b),
      );
      await t.api().get('/api/admin/distribution-files').query({ os_type: 'beos' }).set(bearer(admin)).expect(400);
    });

    it('reads each platform filter from its own index, in the list order (no file row read to count a filter)', async () => {
      // The engine's plan for a filtered page and its count, as the list asks them: one index range each.
      const plan = async (sql: string, value: string) => {
        const engine = t.dataSource.options.type;
        const rows: Array<Record<string, unknown>> = await t.dataSource.query(
          `${engine === 'better-sqlite3' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${sql}`,
          [value],
        );
        return rows.map((row) => (engine === 'better-sqlite3' ? String(row.detail) : `${row.type} ${row.key} ${row.Extra}`)).join('; ');
      };
      for (const [column, value] of [
        ['os_type', 'linux'],
        ['architecture', 'arm64'],
      ]) {
        const index = `IDX_distribution_files_${column}_created_at`;
        const page = await plan(
          `SELECT f.id FROM distribution_files f WHERE f.${column} = ? ORDER BY f.created_at DESC, f.id DESC LIMIT 25`,
          value,
        );
        expect(page).toContain(index);
        expect(page).not.toMatch(/TEMP B-TREE|filesort/i);
        // The count reads only entries of an index led by the column (for os_type, its sort's index serves as well).
        expect(await plan(`SELECT 1 AS one FROM distribution_files f WHERE f.${column} = ? LIMIT 10001`, value)).toMatch(
          new RegExp(`(COVERING INDEX|ref) IDX_distribution_files_${column}(_created_at)?\\b.*(\\(${column}=\\?\\)|Using index)`),
        );
      }
    });

    it('sorts by version both ways, and follows a version renamed here (a refused rename moves nothing)', async () => {
      const byVersion = async (order: 'asc' | 'desc') =>
        (await list({ sort: 'version', order })).data.map((f: { id: number; version: string }) => [f.version, f.id]);
      const ascending = (rows: Array<[string, number]>) => [...rows].sort(([a, x], [b, y]) => (a === b ? x - y : a < b ? -1 : 1));
      const rename = (version: string) => t.api().put(`/api/admin/versions/${v2.id}`).set(bearer(admin)).send({ version });

      const asc = await byVersion('asc');
      expect(asc.map(([version]: [string]) => version)).toEqual(['2.0.0', '2.0.0', '3.0.0', '3.0.0', '3.0.0', '3.0.0']);
      expect(asc).toEqual(ascending(asc));
      expect(await byVersion('desc')).toEqual([...asc].reverse());
      // Searches asked before the rename (their matches are kept a few seconds) find the new number at once.
      const found = async (search: string) => (await list({ search })).meta.total;
      expect([await found('4.0.0'), await found('2.0.0')]).toEqual([0, 2]);

      await rename('4.0.0').expect(200);
      const renamed = await byVersion('asc');
      expect(renamed.map(([version]: [string]) => version)).toEqual(['3.0.0', '3.0.0', '3.0.0', '3.0.0', '4.0.0', '4.0.0']);
      expect(renamed).toEqual(ascending(renamed));
      expect([await found('4.0.0'), await found('2.0.0')]).toEqual([2, 0]);

      await rename('3.0.0').expect(409);
      expect(await byVersion('asc')).toEqual(renamed);

      await rename('2.0.0').expect(200);
      expect(await byVersion('asc')).toEqual(asc);
      expect([await found('4.0.0'), await found('2.0.0')]).toEqual([0, 2]);
    });

    it('counts files, downloads and bytes, per OS', async () => {
      const stats = (await t.api().get('/api/admin/distribution-files/stats').set(bearer(admin)).expect(200)).body.data;
      expect(stats).toEqual({
        total_files: 6,
        total_downloads: 0,
        total_size: 50_000 + 1000 + MAX_UPLOAD_BYTES + 3000 + 4000 + 5000,
        files_by_os: [
          { os_type: 'windows', count: 1, downloads: 0, size: 1000 },
          { os_type: 'linux', count: 3, downloads: 0, size: 57_000 },
          { os_type: 'macos', count: 2, downloads: 0, size: MAX_UPLOAD_BYTES + 5000 },
        ],
      });
    });

    it('offers the versions for the upload form, latest first, with 1/0 flags', async () => {
      const versions = (await t.api().get('/api/admin/distribution-files/versions').set(bearer(admin)).expect(200)).body;
      expect(versions).toEqual({
        success: true,
        data: [
          { id: v3.id, version: '3.0.0', release_date: '2025-05-01', is_latest: 1, is_stable: 1 },
          { id: v2.id, version: '2.0.0', release_date: '2025-03-01', is_latest: 0, is_stable: 1 },
        ],
      });
    });
  });

  describe('kept stats', () => {
    const stats = async () => (await t.api().get('/api/admin/distribution-files/stats').set(bearer(admin)).expect(200)).body.data;

    it('are counted anew after an upload, a download and a delete here', async () => {
      const before = await stats();
      expect(await stats()).toEqual(before);

      const file = await uploadFile(t, { version_id: v2.id, os_type: 'windows', name: 'kept-stats.zip', bytes: someBytes(700) });
      const uploaded = await stats();
      expect(uploaded.total_files).toBe(before.total_files + 1);
      expect(uploaded.total_size).toBe(before.total_size + 700);
      expect(uploaded.files_by_os.find((row: { os_type: string }) => row.os_type === 'windows')).toEqual(
        expect.objectContaining({ count: before.files_by_os.find((row: { os_type: string }) => row.os_type === 'windows').count + 1 }),
      );

      await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(200);
      expect((await stats()).total_downloads).toBe(before.total_downloads + 1);

      await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
      const deleted = await stats();
      expect(deleted.total_files).toBe(before.total_files);
      expect(deleted.total_size).toBe(before.total_size);
      // The deleted file's download goes with it.
      expect(deleted.total_downloads).toBe(before.total_downloads);
    });
  });

  describe('kept totals', () => {
    it("a filter's and a search's totals follow an upload, a version's rename and a delete here at once", async () => {
      const total = async (query: Record<string, string | number>) => (await list(query)).meta.total;
      const windows = await total({ os_type: 'windows' });
      const named = await total({ search: 'kept-total' });
      const ofVersion = await total({ search: '2.0.0' });
      expect(await total({ os_type: 'windows' })).toBe(windows);

      const file = await uploadFile(t, { version_id: v2.id, os_type: 'windows', name: 'kept-total.zip', bytes: someBytes(300) });
      expect([await total({ os_type: 'windows' }), await total({ search: 'kept-total' }), await total({ search: '2.0.0' })]).toEqual([
        windows + 1,
        named + 1,
        ofVersion + 1,
      ]);

      await t.api().put(`/api/admin/versions/${v2.id}`).set(bearer(admin)).send({ version: '2.0.9' }).expect(200);
      expect([await total({ search: '2.0.0' }), await total({ search: '2.0.9' })]).toEqual([0, ofVersion + 1]);
      await t.api().put(`/api/admin/versions/${v2.id}`).set(bearer(admin)).send({ version: '2.0.0' }).expect(200);
      expect([await total({ search: '2.0.0' }), await total({ search: '2.0.9' })]).toEqual([ofVersion + 1, 0]);

      await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
      expect([await total({ os_type: 'windows' }), await total({ search: 'kept-total' }), await total({ search: '2.0.0' })]).toEqual([
        windows,
        named,
        ofVersion,
      ]);
    });
  });

  describe('delete', () => {
    it('removes the row and the stored file', async () => {
      const [file] = (await list({ search: 'dmg' })).data;
      const before = await snapshot();
      const response = await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
      expect(response.body).toEqual({ success: true, message: 'File deleted successfully' });
      const after = await snapshot();
      expect(after.rows).toBe(before.rows - 1);
      expect(after.files).toHaveLength(before.files.length - 1);
      await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(404);
      await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(404);
      // The search asked just before no longer finds it (its matches were kept).
      expect((await list({ search: 'dmg' })).data.map((f: { id: number }) => f.id)).not.toContain(file.id);
    });
  });
});
