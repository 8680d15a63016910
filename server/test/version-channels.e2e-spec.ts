import { PreparedSql } from '../src/database/prepared-sql';
import { DownloadLinksService } from '../src/modules/downloads/download-links.service';
import { createVersion, postVersion, someBytes, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

interface CatalogVersion {
  version: string;
  channel: string;
  state: string;
}

describe(`version channels and states (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let client: string;

  const catalog = async (): Promise<CatalogVersion[]> =>
    (await t.api().get('/api/client/versions').set(bearer(client)).expect(200)).body.data;
  const adminList = async (query: Record<string, string>) =>
    (await t.api().get('/api/admin/versions').query(query).set(bearer(admin)).expect(200)).body.data as CatalogVersion[];
  const setState = (id: number, state: string) => t.api().put(`/api/admin/versions/${id}`).set(bearer(admin)).send({ state }).expect(200);
  const local = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    client = (await t.signUpClient()).token;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('lists the catalog newest semantic version first, whatever the upload order, with each channel', async () => {
    await createVersion(t, '4.3.0', { release_date: '2025-03-01' });
    await createVersion(t, '4.4.0-beta.1', { release_date: '2025-04-01', is_stable: false });
    await createVersion(t, '4.2.0', { release_date: '2025-05-01', is_latest: true });
    expect((await catalog()).map(({ version, channel, state }) => ({ version, channel, state }))).toEqual([
      { version: '4.4.0-beta.1', channel: 'beta', state: 'published' },
      { version: '4.3.0', channel: 'stable', state: 'published' },
      { version: '4.2.0', channel: 'stable', state: 'published' },
    ]);
  });

  it('refuses a version that is not a semantic version, and writes nothing', async () => {
    const before = (await t.dataSource.query('SELECT COUNT(*) AS n FROM versions'))[0].n;
    for (const version of ['v4.5.0', '4.5', '4.5.0.1', '04.5.0']) {
      const response = await postVersion(t, admin, { version, release_date: '2025-06-01' }).expect(400);
      expect(response.body.errors.version).toEqual(['Version must be a semantic version such as 2.1.0 or 3.0.0-beta.1 (no leading v)']);
    }
    const id = (await adminList({ search: '4.3.0' }))[0] as unknown as { id: number };
    await t.api().put(`/api/admin/versions/${id.id}`).set(bearer(admin)).send({ version: '4.3' }).expect(400);
    expect((await t.dataSource.query('SELECT COUNT(*) AS n FROM versions'))[0].n).toEqual(before);
    expect((await adminList({ search: '4.3' })).map((v) => v.version)).toEqual(['4.3.0']);
  });

  it('keeps a draft from customers, their catalog and their downloads, and shows it to admins', async () => {
    const draft = await createVersion(t, '5.0.0', { channel: 'rc', state: 'draft' });
    expect(draft).toMatchObject({ channel: 'rc', state: 'draft', is_stable: false, published_at: null });
    const file = await uploadFile(t, { version_id: draft.id, bytes: someBytes(500) });
    expect((await catalog()).map((v) => v.version)).not.toContain('5.0.0');
    await t.api().get(`/api/download/${file.id}`).set(bearer(client)).expect(404);
    await t.api().post(`/api/download/${file.id}/link`).set(bearer(client)).expect(404);
    await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(200);

    const published = (await setState(draft.id, 'published')).body.data;
    expect(published.state).toBe('published');
    expect(published.published_at).not.toBeNull();
    expect((await catalog())[0]).toMatchObject({ version: '5.0.0', channel: 'rc' });
    // Published, it downloads for whom its channel is granted (release-coverage.e2e-spec has the rest).
    expect((await t.api().get(`/api/download/${file.id}`).set(bearer(client)).expect(403)).body.code).toBe('CHANNEL_NOT_GRANTED');
    await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(200);
  });

  it('takes a yanked version out of the catalog; a link made before works for a day after the yank, then 410', async () => {
    const version = await createVersion(t, '4.1.0');
    const file = await uploadFile(t, { version_id: version.id, bytes: someBytes(500) });
    const link = (await t.api().post(`/api/download/${file.id}/link`).set(bearer(client)).expect(200)).body.data as { url: string };

    const yanked = (await setState(version.id, 'yanked')).body.data;
    expect(yanked.yanked_at).not.toBeNull();
    expect((await catalog()).map((v) => v.version)).not.toContain('4.1.0');
    await t.api().get(`/api/download/${file.id}`).set(bearer(client)).expect(410);
    await t.api().get(local(link.url)).expect(200);

    // A day and a minute after the yank (the link itself has not expired).
    const links = t.app.get(DownloadLinksService);
    const realClock = links.clock;
    links.clock = () => Date.parse(yanked.yanked_at) + 24 * 60 * 60 * 1000 + 60_000;
    const expiresAt = Number(new URL(link.url).searchParams.get('expires')) * 1000;
    await t.dataSource.query('UPDATE versions SET yanked_at = ? WHERE id = ?', [
      PreparedSql.for(t.dataSource).date(new Date(expiresAt - 25 * 60 * 60 * 1000)),
      version.id,
    ]);
    links.clock = () => expiresAt - 1000;
    try {
      const response = await t.api().get(local(link.url)).expect(410);
      expect(response.body.message).toBe('Version 4.1.0 was withdrawn: download a current version from the dashboard.');
    } finally {
      links.clock = realClock;
    }

    const unyanked = (await setState(version.id, 'published')).body.data;
    expect(unyanked.yanked_at).toBeNull();
    expect((await catalog()).map((v) => v.version)).toContain('4.1.0');
  });

  it('makes only a published version the latest: a draft or yanked one is refused, and the latest taken back hands over', async () => {
    const latestId = async () =>
      (await t.dataSource.query('SELECT id FROM versions WHERE is_latest = 1')).map((row: { id: number | string }) => Number(row.id));
    const refused = 'Only a published version can be the latest.';
    const count = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM versions'))[0].n);
    const before = await count();
    const asDraft = await postVersion(t, admin, { version: '6.0.0', release_date: '2030-01-01', state: 'draft', is_latest: true }).expect(
      400,
    );
    expect(asDraft.body.errors.is_latest).toEqual([refused]);
    expect(await count()).toBe(before);

    // A draft released after every other version does not become the latest on its own, nor by the toggle.
    const draft = await createVersion(t, '6.0.0', { release_date: '2030-01-01', state: 'draft' });
    const [current] = await latestId();
    expect(current).not.toBe(draft.id);
    const toggled = await t
      .api()
      .post(`/api/admin/versions/${draft.id}/toggle-status`)
      .set(bearer(admin))
      .send({ flag: 'is_latest' })
      .expect(400);
    expect(toggled.body.errors.is_latest).toEqual([refused]);
    await t.api().put(`/api/admin/versions/${draft.id}`).set(bearer(admin)).send({ is_latest: true }).expect(400);
    expect(await latestId()).toEqual([current]);

    // Published, it may be made the latest; yanked, the newest published release takes over.
    await setState(draft.id, 'published');
    await t.api().put(`/api/admin/versions/${draft.id}`).set(bearer(admin)).send({ is_latest: true }).expect(200);
    expect(await latestId()).toEqual([draft.id]);
    await setState(draft.id, 'yanked');
    const [newest] = await t.dataSource.query(
      "SELECT id FROM versions WHERE state = 'published' AND id <> ? ORDER BY release_date DESC, id DESC LIMIT 1",
      [draft.id],
    );
    expect(await latestId()).toEqual([Number(newest.id)]);
    await t.api().delete(`/api/admin/versions/${draft.id}`).set(bearer(admin)).expect(200);
  });

  it('filters the admin list by channel and state, and sorts it by semantic version', async () => {
    await createVersion(t, '4.4.0-alpha.2', { channel: 'alpha', state: 'draft' });
    expect((await adminList({ channel: 'alpha' })).map((v) => v.version)).toEqual(['4.4.0-alpha.2']);
    expect((await adminList({ state: 'draft' })).map((v) => v.version)).toEqual(['4.4.0-alpha.2']);
    expect((await adminList({ channel: 'beta', state: 'published' })).map((v) => v.version)).toEqual(['4.4.0-beta.1']);
    expect((await adminList({ sort: 'version', order: 'desc' })).map((v) => v.version)).toEqual([
      '5.0.0',
      '4.4.0-beta.1',
      '4.4.0-alpha.2',
      '4.3.0',
      '4.2.0',
      '4.1.0',
    ]);
    await t.api().get('/api/admin/versions').query({ channel: 'nightly' }).set(bearer(admin)).expect(400);
  });

  it('keeps is_stable and the channel in step: the Stable/Beta toggle moves the channel', async () => {
    const version = await createVersion(t, '4.0.0');
    const beta = (await t.api().post(`/api/admin/versions/${version.id}/toggle-status`).set(bearer(admin)).send({}).expect(200)).body.data;
    expect(beta).toMatchObject({ is_stable: false, channel: 'beta' });
    const rc = (await t.api().put(`/api/admin/versions/${version.id}`).set(bearer(admin)).send({ channel: 'rc' }).expect(200)).body.data;
    expect(rc).toMatchObject({ is_stable: false, channel: 'rc' });
    const stable = (await t.api().post(`/api/admin/versions/${version.id}/toggle-status`).set(bearer(admin)).send({}).expect(200)).body
      .data;
    expect(stable).toMatchObject({ is_stable: true, channel: 'stable' });
  });

  it('maps the old flags in the migration: not stable is beta, every version published since it was created, sorted by semver', async () => {
    const undone = t.dataSource.migrations.length - t.dataSource.migrations.findIndex((m) => m.name === 'VersionChannels1765500000000');
    for (let i = 0; i < undone; i++) await t.dataSource.undoLastMigration({ transaction: 'each' });
    await t.dataSource.query("UPDATE versions SET is_stable = 0 WHERE version = '4.3.0'");
    await t.dataSource.runMigrations({ transaction: 'each' });
    const rows = (await t.dataSource.query(
      'SELECT version, channel, state, is_stable, published_at, created_at FROM versions ORDER BY version_order DESC',
    )) as Array<{
      version: string;
      channel: string;
      state: string;
      is_stable: number | boolean;
      published_at: unknown;
      created_at: unknown;
    }>;
    expect(rows.map((row) => row.version)).toEqual(['5.0.0', '4.4.0-beta.1', '4.4.0-alpha.2', '4.3.0', '4.2.0', '4.1.0', '4.0.0']);
    expect(rows.find((row) => row.version === '4.3.0')).toMatchObject({ channel: 'beta', state: 'published' });
    expect(rows.find((row) => row.version === '4.2.0')).toMatchObject({ channel: 'stable', state: 'published' });
    expect(rows.find((row) => row.version === '4.4.0-beta.1')!.channel).toBe('beta');
    for (const row of rows) expect(String(row.published_at)).toBe(String(row.created_at));
  });
});
