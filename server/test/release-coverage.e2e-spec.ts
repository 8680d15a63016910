import { createVersion, countRows, someBytes, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

interface Access {
  covered: boolean;
  renew: boolean;
  refusal: string | null;
}

const YEAR_AHEAD = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

describe(`which releases a license covers (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let stableFile: number;
  let betaFile: number;

  const customer = () => t.signUpClient();
  const license = async (email: string, fields: Record<string, unknown> = {}) =>
    (
      await t
        .api()
        .post('/api/admin/licenses')
        .set(bearer(admin))
        .send({ product_name: 'StreamHub Pro', user_email: email, expires_at: YEAR_AHEAD, ...fields })
        .expect(201)
    ).body.data as { id: number; channel: string; updates_until: string | null };
  const accessOf = async (token: string): Promise<Record<string, Access>> => {
    const versions = (await t.api().get('/api/client/versions').set(bearer(token)).expect(200)).body.data as {
      version: string;
      access: Access;
    }[];
    return Object.fromEntries(versions.map(({ version, access }) => [version, access]));
  };
  const download = (token: string, id: number) => t.api().get(`/api/download/${id}`).set(bearer(token));
  const setting = (value: boolean) =>
    t.api().patch('/api/admin/settings').set(bearer(admin)).send({ key: 'features.downloads_require_license', value }).expect(200);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    const stable = await createVersion(t, '4.2.0');
    const beta = await createVersion(t, '4.4.0-beta.1', { channel: 'beta' });
    stableFile = (await uploadFile(t, { version_id: stable.id, bytes: someBytes(700) })).id;
    betaFile = (await uploadFile(t, { version_id: beta.id, bytes: someBytes(900) })).id;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('opens stable releases to a customer without a license, and refuses a beta with the reason, writing nothing', async () => {
    const { token } = await customer();
    expect(await accessOf(token)).toEqual({
      '4.4.0-beta.1': { covered: false, renew: false, refusal: 'CHANNEL_NOT_GRANTED' },
      '4.2.0': { covered: false, renew: false, refusal: null },
    });
    await download(token, stableFile).expect(200);
    const logs = await countRows(t, 'download_logs');
    for (const refused of [download(token, betaFile), t.api().post(`/api/download/${betaFile}/link`).set(bearer(token))]) {
      const response = await refused.expect(403);
      expect(response.body).toEqual({
        statusCode: 403,
        code: 'CHANNEL_NOT_GRANTED',
        message:
          'Version 4.4.0-beta.1 is a beta release, and none of your licenses includes the beta channel. Ask the vendor for access.',
      });
    }
    expect(await countRows(t, 'download_logs')).toBe(logs);
  });

  it('gives a beta to a customer whose license is granted it, or whose account is, and takes it back with the license', async () => {
    const byLicense = await customer();
    const granted = await license(byLicense.email, { channel: 'beta' });
    expect(granted).toMatchObject({ channel: 'beta', updates_until: null });
    expect((await accessOf(byLicense.token))['4.4.0-beta.1']).toEqual({ covered: true, renew: false, refusal: null });
    await download(byLicense.token, betaFile).expect(200);

    const byAccount = await customer();
    await license(byAccount.email);
    await download(byAccount.token, betaFile).expect(403);
    const user = await t.api().put(`/api/admin/users/${byAccount.id}`).set(bearer(admin)).send({ channel: 'beta' }).expect(200);
    expect(user.body.data.channel).toBe('beta');
    await download(byAccount.token, betaFile).expect(200);

    // A grant comes from a license that counts: a revoked one grants nothing.
    await t.api().post(`/api/admin/licenses/${granted.id}/revoke`).set(bearer(admin)).expect(200);
    expect((await download(byLicense.token, betaFile).expect(403)).body.code).toBe('CHANNEL_NOT_GRANTED');
  });

  it('marks a release published after the updates ended as one to renew for, and covers it again once they are moved on', async () => {
    const ended = await customer();
    const held = await license(ended.email, { channel: 'beta', updates_until: '2020-01-31' });
    expect(held.updates_until).toBe('2020-01-31T23:59:59.999Z');
    expect(await accessOf(ended.token)).toEqual({
      '4.4.0-beta.1': { covered: false, renew: true, refusal: 'UPDATES_ENDED' },
      '4.2.0': { covered: false, renew: true, refusal: null },
    });
    const refused = await download(ended.token, betaFile).expect(403);
    expect(refused.body).toMatchObject({ code: 'UPDATES_ENDED' });
    expect(refused.body.message).toBe(
      'The updates of your licenses ended before version 4.4.0-beta.1 was published: renew a license to download it.',
    );
    // A stable release stays open to try.
    await download(ended.token, stableFile).expect(200);

    // null: the expiry (a year ahead) ends the updates again.
    const renewed = await t.api().put(`/api/admin/licenses/${held.id}`).set(bearer(admin)).send({ updates_until: null }).expect(200);
    expect(renewed.body.data.updates_until).toBeNull();
    expect((await accessOf(ended.token))['4.4.0-beta.1']).toEqual({ covered: true, renew: false, refusal: null });
    await download(ended.token, betaFile).expect(200);

    const mine = (await t.api().get('/api/licenses').set(bearer(ended.token)).expect(200)).body.data;
    expect(mine).toEqual([expect.objectContaining({ id: held.id, channel: 'beta', updates_until: null })]);
  });

  it('requires a covering license for every download while the setting is on; admins download everything', async () => {
    const none = await customer();
    const ended = await customer();
    await license(ended.email, { updates_until: '2020-01-31' });
    const covered = await customer();
    await license(covered.email);
    await setting(true);
    try {
      expect((await download(none.token, stableFile).expect(403)).body).toMatchObject({
        code: 'LICENSE_REQUIRED',
        message: 'Downloads need a license: take a trial or buy a license to download version 4.2.0.',
      });
      expect((await t.api().head(`/api/download/${stableFile}`).set(bearer(none.token))).status).toBe(403);
      expect((await download(ended.token, stableFile).expect(403)).body.code).toBe('UPDATES_ENDED');
      expect((await accessOf(none.token))['4.2.0']).toEqual({ covered: false, renew: false, refusal: 'LICENSE_REQUIRED' });
      await download(covered.token, stableFile).expect(200);
      await download(admin, stableFile).expect(200);
      await download(admin, betaFile).expect(200);
      expect(await accessOf(admin)).toEqual({
        '4.4.0-beta.1': { covered: true, renew: false, refusal: null },
        '4.2.0': { covered: true, renew: false, refusal: null },
      });
    } finally {
      await setting(false);
    }
    await download(none.token, stableFile).expect(200);
  });

  it('refuses a signed link once the licenses no longer allow its release', async () => {
    const holder = await customer();
    const held = await license(holder.email, { channel: 'beta' });
    const link = (await t.api().post(`/api/download/${betaFile}/link`).set(bearer(holder.token)).expect(200)).body.data as { url: string };
    const path = new URL(link.url);
    await t.api().get(`${path.pathname}${path.search}`).expect(200);
    await t.api().put(`/api/admin/licenses/${held.id}`).set(bearer(admin)).send({ channel: 'stable' }).expect(200);
    expect((await t.api().get(`${path.pathname}${path.search}`).expect(403)).body.code).toBe('CHANNEL_NOT_GRANTED');
  });

  it('refuses a channel or an end of updates that is not one, and changes nothing', async () => {
    const holder = await customer();
    const held = await license(holder.email);
    for (const body of [{ channel: 'nightly' }, { updates_until: 'soon' }, { channel: null }]) {
      const response = await t.api().put(`/api/admin/licenses/${held.id}`).set(bearer(admin)).send(body).expect(400);
      expect(Object.keys(response.body.errors)).toEqual([Object.keys(body)[0]]);
    }
    await t.api().put(`/api/admin/users/${holder.id}`).set(bearer(admin)).send({ channel: 'nightly' }).expect(400);
    const after = (await t.api().get(`/api/admin/licenses/${held.id}`).set(bearer(admin)).expect(200)).body.data;
    expect(after).toMatchObject({ channel: 'stable', updates_until: null });
    const user = (await t.api().get(`/api/admin/users/${holder.id}`).set(bearer(admin)).expect(200)).body.data;
    expect(user.channel).toBe('stable');
  });
});
