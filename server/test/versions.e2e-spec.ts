import { asBuffer, countRows, createVersion, postVersion, sha256, someBytes, storedFiles, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

const SECRET = 'secret-7f3a9c1e-never-for-clients';
const ENCRYPTION = 'encryption-5b2d8e4f-never-for-clients';

describe(`versions (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let client: { token: string; id: number };

  const list = async (query: Record<string, string | number> = {}) =>
    (await t.api().get('/api/admin/versions').query(query).set(bearer(admin)).expect(200)).body;
  const latestVersions = async () =>
    (await t.dataSource.query('SELECT version FROM versions WHERE is_latest = 1')).map((row: { version: string }) => row.version);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    client = await t.signUpClient();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('upload', () => {
    it('stores a version with its file, hashed while it streamed in; the first version becomes the latest', async () => {
      const bytes = someBytes(40_000);
      const response = await postVersion(
        t,
        admin,
        {
          version: '1.0.0',
          release_date: '2025-01-15',
          changelog: 'First release',
          download_url: 'https://downloads.example.com/1.0.0',
          secret_hash: SECRET,
          encryption_key: ENCRYPTION,
          min_system_requirements: '{"os":"Ubuntu 22.04","ram":"4 GB","storage":"10 GB"}',
          is_latest: false,
        },
        { bytes, name: 'streamhub-1.0.0.zip' },
      ).expect(201);
      expect(response.body.message).toBe('Version uploaded successfully');
      expect(response.body.data).toMatchObject({
        version: '1.0.0',
        release_date: '2025-01-15',
        is_stable: true,
        is_latest: true,
        changelog: 'First release',
        file_name: 'streamhub-1.0.0.zip',
        file_size: 40_000,
        file_hash: sha256(bytes),
        secret_hash: SECRET,
        encryption_key: ENCRYPTION,
        license_server_sync: true,
        last_sync_at: null,
        sync_status: 'pending',
      });
      expect(storedFiles(t)).toEqual([expect.stringMatching(/^versions\/[0-9a-f-]{36}\.zip$/)]);
      const file = await t
        .api()
        .get(`/api/admin/versions/${response.body.data.id}/file`)
        .set(bearer(admin))
        .buffer(true)
        .parse(asBuffer)
        .expect(200);
      expect(sha256(file.body)).toBe(sha256(bytes));
    });

    it('accepts a version without a file, and keeps sync off as Local Only', async () => {
      const version = await createVersion(t, '1.1.0', { release_date: '2025-02-01', sync_to_license_server: false, is_stable: false });
      expect(version).toMatchObject({ file_name: null, file_size: null, file_hash: null, is_stable: false, sync_status: 'local_only' });
    });

    it.each([
      [{ version: '', release_date: '2025-01-01' }, 'version', 'Version is required'],
      [{ release_date: '2025-01-01' }, 'version', 'Version is required'],
      [
        { version: 'two point one', release_date: '2025-01-01' },
        'version',
        'Version must be a semantic version such as 2.1.0 or 3.0.0-beta.1 (no leading v)',
      ],
      [{ version: '9.0.0', release_date: '' }, 'release_date', 'Release date is required'],
      [{ version: '9.0.0', release_date: '2025-02-30' }, 'release_date', 'Release date must be a valid date (YYYY-MM-DD)'],
      [{ version: '9.0.0', release_date: '2025-01-01', download_url: 'not a url' }, 'download_url', 'Download URL must be a valid URL'],
      [
        { version: '9.0.0', release_date: '2025-01-01', min_system_requirements: '{os: ubuntu' },
        'min_system_requirements',
        'System requirements must be valid JSON',
      ],
    ])('refuses %j with "%s: %s" and stores nothing', async (fields, field, message) => {
      const before = { rows: await countRows(t, 'versions'), files: storedFiles(t) };
      const response = await postVersion(t, admin, fields, { bytes: someBytes(100), name: 'x.zip' }).expect(400);
      expect(response.body.message).toBe(message);
      expect(response.body.errors[field]).toEqual([message]);
      expect({ rows: await countRows(t, 'versions'), files: storedFiles(t) }).toEqual(before);
    });

    it('refuses a file type the upload does not take with 415 and stores nothing', async () => {
      const before = { rows: await countRows(t, 'versions'), files: storedFiles(t) };
      const response = await postVersion(
        t,
        admin,
        { version: '9.0.0', release_date: '2025-01-01' },
        { bytes: someBytes(100), name: 'x.deb' },
      );
      expect(response.status).toBe(415);
      expect(response.body.message).toBe('File type not allowed. Allowed types: .zip, .exe, .dmg, .pkg');
      expect({ rows: await countRows(t, 'versions'), files: storedFiles(t) }).toEqual(before);
    });

    it('refuses a duplicate version with 409 on the version field, keeping the stored files as they were', async () => {
      const before = storedFiles(t);
      const response = await postVersion(
        t,
        admin,
        { version: '1.0.0', release_date: '2025-01-01' },
        { bytes: someBytes(10), name: 'y.zip' },
      );
      expect(response.status).toBe(409);
      expect(response.body.errors.version).toEqual(['Version 1.0.0 already exists']);
      expect(storedFiles(t)).toEqual(before);
    });

    it('is for admins only', async () => {
      await postVersion(t, client.token, { version: '9.9.9', release_date: '2025-01-01' }).expect(403);
      await t.api().get('/api/admin/versions').set(bearer(client.token)).expect(403);
      await t.api().put('/api/admin/versions/1').set(bearer(client.token)).send({ is_stable: false }).expect(403);
      await t.api().delete('/api/admin/versions/1').set(bearer(client.token)).expect(403);
      await t.api().post('/api/admin/versions/1/toggle-status').set(bearer(client.token)).expect(403);
      await t.api().get('/api/admin/versions/supported').set(bearer(client.token)).expect(403);
      expect(await countRows(t, 'versions')).toBe(2);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      for (let i = 0; i < 6; i++) await createVersion(t, `3.${i}.0`, { release_date: `2024-0${i + 1}-10`, changelog: `Batch ${i}` });
    });

    it('pages, counts and sorts on the server (default created_at desc, 25 per page)', async () => {
      const first = await list();
      expect(first.meta).toMatchObject({ total: 8, page: 1, limit: 25, pages: 1, overall_total: 8, last_sync_at: null });
      expect(first.data[0].version).toBe('3.5.0');
      const paged = await list({ limit: 3, page: 2, sort: 'release_date', order: 'asc' });
      expect(paged.meta).toMatchObject({ total: 8, page: 2, limit: 3, pages: 3 });
      expect(paged.data.map((v: { version: string }) => v.version)).toEqual(['3.3.0', '3.4.0', '3.5.0']);
    });

    it('searches version, changelog and download_url', async () => {
      expect((await list({ search: '3.2' })).data.map((v: { version: string }) => v.version)).toEqual(['3.2.0']);
      expect((await list({ search: 'Batch 4' })).data.map((v: { version: string }) => v.version)).toEqual(['3.4.0']);
      expect((await list({ search: 'downloads.example.com' })).data.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
      const none = await list({ search: '%' });
      expect(none.meta).toMatchObject({ total: 0, overall_total: 8 });
    });

    it("a search's and the overall totals follow a new, a renamed and a deleted version at once", async () => {
      const totals = async (search: string) => {
        const { meta } = await list({ search });
        return [meta.total, meta.overall_total];
      };
      const [overall] = await totals('');
      expect(await totals('')).toEqual([overall, overall]);
      expect(await totals('Kept totals')).toEqual([0, overall]);

      const created = await createVersion(t, '3.9.0', { release_date: '2024-09-10', changelog: 'Kept totals' });
      expect(await totals('')).toEqual([overall + 1, overall + 1]);
      expect(await totals('Kept totals')).toEqual([1, overall + 1]);
      expect(await totals('3.9.1')).toEqual([0, overall + 1]);

      await t.api().put(`/api/admin/versions/${created.id}`).set(bearer(admin)).send({ version: '3.9.1' }).expect(200);
      expect(await totals('3.9.1')).toEqual([1, overall + 1]);

      await t.api().delete(`/api/admin/versions/${created.id}`).set(bearer(admin)).expect(200);
      expect(await totals('')).toEqual([overall, overall]);
      expect(await totals('Kept totals')).toEqual([0, overall]);
      expect(await totals('3.9.1')).toEqual([0, overall]);
    });

    it('refuses unknown sort keys and page sizes beyond 100', async () => {
      await t.api().get('/api/admin/versions').query({ sort: 'secret_hash' }).set(bearer(admin)).expect(400);
      await t.api().get('/api/admin/versions').query({ limit: 101 }).set(bearer(admin)).expect(400);
    });

    it('tells what uploads accept', async () => {
      const supported = await t.api().get('/api/admin/versions/supported').set(bearer(admin)).expect(200);
      expect(supported.body.data).toMatchObject({
        os_types: ['windows', 'linux', 'macos'],
        architectures: ['x64', 'x86', 'arm64'],
        version_extensions: ['.zip', '.exe', '.dmg', '.pkg'],
        file_extensions: ['.exe', '.dmg', '.pkg', '.tar.gz', '.zip', '.deb', '.rpm'],
        max_upload_bytes: t.config.storage.maxUploadBytes,
      });
      expect(supported.body.data.versions[0]).toMatchObject({ version: '1.0.0', is_latest: true });
      expect(supported.body.data.versions).toHaveLength(8);
    });
  });

  describe('edit and flags', () => {
    const id = async (version: string) => (await list({ search: version })).data.find((v: { version: string }) => v.version === version).id;

    it('edits fields; version and release date cannot be emptied', async () => {
      const versionId = await id('3.1.0');
      const edited = await t
        .api()
        .put(`/api/admin/versions/${versionId}`)
        .set(bearer(admin))
        .send({ changelog: 'Rewritten', download_url: '', secret_hash: 'abc12345xyz' })
        .expect(200);
      expect(edited.body).toMatchObject({ message: 'Version updated successfully', data: { changelog: 'Rewritten', download_url: null } });
      for (const [body, message] of [
        [{ version: '' }, 'Version is required'],
        [{ version: null }, 'Version is required'],
        [{ release_date: '' }, 'Release date is required'],
      ] as const) {
        const refused = await t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send(body).expect(400);
        expect(refused.body.message).toBe(message);
      }
      const clash = await t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send({ version: '3.2.0' }).expect(409);
      expect(clash.body.errors.version).toEqual(['Version 3.2.0 already exists']);
      await t.api().put('/api/admin/versions/99999').set(bearer(admin)).send({ changelog: 'x' }).expect(404);
    });

    it('toggles Stable/Beta', async () => {
      const versionId = await id('3.2.0');
      const beta = await t.api().post(`/api/admin/versions/${versionId}/toggle-status`).set(bearer(admin)).expect(200);
      expect(beta.body).toMatchObject({ message: 'Version marked as beta', data: { is_stable: false } });
      const stable = await t
        .api()
        .post(`/api/admin/versions/${versionId}/toggle-status`)
        .set(bearer(admin))
        .send({ flag: 'is_stable' })
        .expect(200);
      expect(stable.body).toMatchObject({ message: 'Version marked as stable', data: { is_stable: true } });
    });

    it('keeps exactly one latest version: marking another moves the flag, un-marking the latest is refused', async () => {
      expect(await latestVersions()).toEqual(['1.0.0']);
      const versionId = await id('3.3.0');
      await t.api().post(`/api/admin/versions/${versionId}/toggle-status`).set(bearer(admin)).send({ flag: 'is_latest' }).expect(200);
      expect(await latestVersions()).toEqual(['3.3.0']);
      const refused = await t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send({ is_latest: false }).expect(409);
      expect(refused.body.message).toBe('A version must stay the latest: mark another version as latest instead.');
      await t.api().post(`/api/admin/versions/${versionId}/toggle-status`).set(bearer(admin)).send({ flag: 'is_latest' }).expect(409);
      const uploaded = await createVersion(t, '4.0.0', { release_date: '2025-07-01', is_latest: true });
      expect(uploaded.is_latest).toBe(true);
      expect(await latestVersions()).toEqual(['4.0.0']);
    });

    it('keeps exactly one latest version when many requests mark different versions at once', async () => {
      const ids = (await list({ search: '3.' })).data.map((v: { id: number }) => v.id);
      expect(ids.length).toBe(6);
      const responses = await Promise.all(
        ids.map((versionId: number) => t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send({ is_latest: true })),
      );
      expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));
      expect(await latestVersions()).toHaveLength(1);
    });

    it('shows the sync state: an edit makes a synced version pending again; sync off is Local Only', async () => {
      const versionId = await id('3.4.0');
      const before = Date.now();
      await t.api().post(`/api/admin/versions/${versionId}/sync`).set(bearer(admin)).expect(200);
      const synced = await list({ search: '3.4.0' });
      expect(synced.data[0]).toMatchObject({ sync_status: 'synced' });
      expect(Date.parse(synced.data[0].last_sync_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(synced.meta.last_sync_at).toBe(synced.data[0].last_sync_at);
      const edited = await t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send({ changelog: 'Changed' }).expect(200);
      expect(edited.body.data).toMatchObject({ sync_status: 'pending', last_sync_at: null });
      // 'Last sync' is the time of the last sync run: an edit makes the version pending, it does not undo the sync.
      expect((await list({ search: '3.4.0' })).meta.last_sync_at).toBe(synced.meta.last_sync_at);
      const local = await t
        .api()
        .put(`/api/admin/versions/${versionId}`)
        .set(bearer(admin))
        .send({ license_server_sync: false })
        .expect(200);
      expect(local.body.data).toMatchObject({ sync_status: 'local_only', license_server_sync: false });
    });
  });

  describe('delete', () => {
    it('removes the version with its files (rows and stored bytes); the newest remaining version becomes latest', async () => {
      const latest = (await list({ search: '' })).data.find((v: { is_latest: boolean }) => v.is_latest);
      await uploadFile(t, { version_id: latest.id, name: 'a.deb' });
      await uploadFile(t, { version_id: latest.id, name: 'b.rpm' });
      const filesBefore = storedFiles(t).length;
      const response = await t.api().delete(`/api/admin/versions/${latest.id}`).set(bearer(admin)).expect(200);
      expect(response.body).toEqual({ success: true, message: 'Version deleted successfully' });
      expect(storedFiles(t)).toHaveLength(filesBefore - 2);
      expect(await countRows(t, 'distribution_files')).toBe(0);
      const [newest] = await t.dataSource.query('SELECT version FROM versions ORDER BY release_date DESC, id DESC LIMIT 1');
      expect(await latestVersions()).toEqual([newest.version]);
      await t.api().delete(`/api/admin/versions/${latest.id}`).set(bearer(admin)).expect(404);
    });

    it("deletes a version's own file from storage", async () => {
      const version = (await list({ search: '1.0.0' })).data[0];
      expect(storedFiles(t).some((path) => path.startsWith('versions/'))).toBe(true);
      await t.api().delete(`/api/admin/versions/${version.id}`).set(bearer(admin)).expect(200);
      expect(storedFiles(t).some((path) => path.startsWith('versions/'))).toBe(false);
    });
  });

  describe('the client view', () => {
    let withFiles: { id: number; version: string };

    beforeAll(async () => {
      withFiles = await createVersion(t, '5.0.0', {
        release_date: '2025-09-01',
        changelog: 'Client-facing notes',
        secret_hash: SECRET,
        encryption_key: ENCRYPTION,
        is_latest: true,
      });
      await uploadFile(t, { version_id: withFiles.id, os_type: 'windows', architecture: 'x64', name: 'setup.exe' });
      await uploadFile(t, { version_id: withFiles.id, os_type: 'linux', architecture: 'arm64', name: 'streamhub_arm64.deb' });
    });

    it.each(['/api/versions', '/api/client/versions'])(
      '%s lists versions with has_files and distribution_files, the newest version first',
      async (path) => {
        const response = await t.api().get(path).set(bearer(client.token)).expect(200);
        expect(response.body.success).toBe(true);
        expect(response.body.meta).toMatchObject({ page: 1, limit: 10 });
        const [first, ...rest] = response.body.data;
        expect(first).toEqual({
          id: withFiles.id,
          version: '5.0.0',
          is_latest: 1,
          is_stable: 1,
          channel: 'stable',
          state: 'published',
          release_date: '2025-09-01',
          changelog: 'Client-facing notes',
          has_files: true,
          // A customer without a license: stable releases are open to try, none is covered.
          access: { covered: false, renew: false, refusal: null },
          distribution_files: [
            expect.objectContaining({
              file_name: 'streamhub_arm64.deb',
              os_type: 'linux',
              architecture: 'arm64',
              is_latest: 1,
              version: '5.0.0',
            }),
            expect.objectContaining({ file_name: 'setup.exe', os_type: 'windows', architecture: 'x64', download_count: 0 }),
          ],
        });
        expect(
          rest.every((v: { has_files: boolean; distribution_files: unknown[]; is_latest: number }) => !v.has_files && v.is_latest === 0),
        ).toBe(true);
        expect(rest.every((v: { distribution_files: unknown[] }) => v.distribution_files.length === 0)).toBe(true);
      },
    );

    it('never carries secret or encryption keys to a client, on any client endpoint', async () => {
      const file = (await t.api().get('/api/client/versions').set(bearer(client.token))).body.data[0].distribution_files[0];
      const responses = await Promise.all([
        t.api().get('/api/versions').set(bearer(client.token)),
        t.api().get('/api/client/versions').set(bearer(client.token)),
        t.api().get(`/api/download/${file.id}/info`).set(bearer(client.token)),
        t.api().post(`/api/download/${file.id}/link`).set(bearer(client.token)),
        t.api().get('/api/downloads/history').set(bearer(client.token)),
        t.api().get('/api/admin/licenses/available-versions').set(bearer(client.token)),
        t.api().get('/api/licenses/products').set(bearer(client.token)),
      ]);
      for (const response of responses) {
        expect(response.status).toBeLessThan(500);
        for (const forbidden of [SECRET, ENCRYPTION, 'secret_hash', 'encryption_key', 'storage_key'])
          expect(response.text).not.toContain(forbidden);
      }
      expect(responses[5].status).toBe(403);
    });

    it('needs a session', async () => {
      await t.api().get('/api/versions').expect(401);
      await t.api().get('/api/client/versions').expect(401);
    });
  });
});
