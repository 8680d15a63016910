import { DashboardService } from '../src/modules/dashboard/dashboard.service';
import { createVersion } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid, verifySignedResponse } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** Waits until the clock has passed `instant`, so what is published next is published after it. */
async function clockPast(instant: string): Promise<void> {
  while (Date.now() <= new Date(instant).getTime()) await new Promise((resolve) => setImmediate(resolve));
}

describe(`what validate tells a server about its release (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let publicKey: string;
  /** When 4.1.0 was published: a license whose updates end then covers it and not what came after. */
  let firstPublished: string;

  const setMinimum = (value: string) =>
    t.api().patch('/api/admin/settings').set(bearer(admin)).send({ key: 'app_info.min_supported_version', value });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    publicKey = (await t.api().get('/api/license-server/public-key').expect(200)).body.data.public_key_pem;
    firstPublished = (await createVersion(t, '4.1.0')).published_at as unknown as string;
    await clockPast(firstPublished);
    await createVersion(t, '4.2.0');
    await createVersion(t, '4.3.0-beta.1', { channel: 'beta' });
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('offers the newest covered release above the one a server runs, signed with the rest of the answer', async () => {
    const issued = await issueLicense(t);
    const server = serverUid();
    const activated = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
    expect(activated.body.data).toMatchObject({
      code: 'VALID',
      newest_covered: '4.2.0',
      update_available: '4.2.0',
      update_required: false,
    });
    verifySignedResponse(activated.body.data, publicKey);
    // A heartbeat that leaves the version out is judged by the one the server sent before.
    const beat = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server });
    expect(beat.body.data).toMatchObject({ code: 'VALID', update_available: '4.2.0' });
    const current = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, version: '4.2.0' });
    expect(current.body.data).toMatchObject({ code: 'VALID', valid: true, newest_covered: '4.2.0', update_available: null });
    verifySignedResponse(current.body.data, publicKey);
  });

  it('offers a beta only to a license granted it', async () => {
    const issued = await issueLicense(t, { channel: 'beta' });
    const answer = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid(), version: '4.2.0' });
    expect(answer.body.data).toMatchObject({ code: 'VALID', newest_covered: '4.3.0-beta.1', update_available: '4.3.0-beta.1' });
    // A stable license running the beta runs a release it does not cover.
    const stable = await issueLicense(t);
    const refused = await callLicenseServer(t, 'activate', {
      license_key: stable.license_key,
      server_uid: serverUid(),
      version: '4.3.0-beta.1',
    });
    expect(refused.body).toMatchObject({ success: false, data: { code: 'VERSION_NOT_COVERED', valid: false, newest_covered: '4.2.0' } });
  });

  it('answers VERSION_NOT_COVERED with the newest covered release for a release published after the updates ended', async () => {
    const issued = await issueLicense(t, { updates_until: firstPublished });
    const server = serverUid();
    const covered = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
    expect(covered.body.data).toMatchObject({ code: 'VALID', newest_covered: '4.1.0', update_available: null });

    // The server moves to 4.2.0 on its own: validate says it is not covered, and which release is.
    const moved = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, version: '4.2.0' });
    expect(moved.body).toMatchObject({
      success: false,
      data: {
        code: 'VERSION_NOT_COVERED',
        valid: false,
        newest_covered: '4.1.0',
        message: 'This server runs a release that its license does not cover: install newest_covered, or renew the license',
      },
    });
    verifySignedResponse(moved.body.data, publicKey);
    // A new server on 4.2.0 gets no seat.
    const other = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid(), version: '4.2.0' });
    expect(other.body.data.code).toBe('VERSION_NOT_COVERED');
    const seats = (await t.api().get(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).expect(200)).body.data.current_activations;
    expect(seats).toBe(1);

    // Renewed (the updates follow the expiry again), 4.2.0 is covered.
    await t.api().put(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).send({ updates_until: null }).expect(200);
    const renewed = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, version: '4.2.0' });
    expect(renewed.body.data).toMatchObject({ code: 'VALID', newest_covered: '4.2.0' });
  });

  it('requires an update below the minimum supported version an admin sets, and refuses one that is not a version', async () => {
    const issued = await issueLicense(t);
    const server = serverUid();
    await setMinimum('4.2.0').expect(200);
    try {
      const old = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
      expect(old.body.data).toMatchObject({ code: 'VALID', update_required: true, update_available: '4.2.0' });
      const current = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, version: '4.2.0' });
      expect(current.body.data).toMatchObject({ update_required: false });
      const refused = await setMinimum('four').expect(400);
      expect(refused.body.errors).toEqual({
        'app_info.min_supported_version': ['min_supported_version must be a semantic version such as 2.1.0, or empty'],
      });
      const settings = (await t.api().get('/api/admin/settings').set(bearer(admin)).expect(200)).body.data;
      expect(settings.app_info.min_supported_version).toBe('4.2.0');
    } finally {
      await setMinimum('').expect(200);
    }
    const after = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
    expect(after.body.data).toMatchObject({ update_required: false });
  });

  it("shows in My Devices the update each of a customer's servers may take, by the release it last reported", async () => {
    const customer = await t.signUpClient();
    const issued = await issueLicense(t, { user_email: customer.email, max_activations: 2 });
    await callLicenseServer(t, 'activate', {
      license_key: issued.license_key,
      server_uid: serverUid(),
      version: '4.1.0',
      hostname: 'edge-1',
    });
    await callLicenseServer(t, 'activate', {
      license_key: issued.license_key,
      server_uid: serverUid(),
      version: '4.2.0',
      hostname: 'edge-2',
    });
    const mine = async () =>
      Object.fromEntries(
        ((await t.api().get('/api/devices').set(bearer(customer.token)).expect(200)).body.data as Array<Record<string, unknown>>).map(
          (device) => [
            device.hostname,
            { version: device.version, update_available: device.update_available, update_required: device.update_required },
          ],
        ),
      );
    expect(await mine()).toEqual({
      'edge-1': { version: '4.1.0', update_available: '4.2.0', update_required: false },
      'edge-2': { version: '4.2.0', update_available: null, update_required: false },
    });
    // The customer's own channel counts here as it does for validate.
    await t.api().put(`/api/admin/users/${customer.id}`).set(bearer(admin)).send({ channel: 'beta' }).expect(200);
    expect((await mine())['edge-2']).toEqual({ version: '4.2.0', update_available: '4.3.0-beta.1', update_required: false });
  });

  it('says nothing of updates to a server of an unknown key', async () => {
    const answer = await callLicenseServer(t, 'validate', {
      license_key: 'SH-NOPE1-NOPE2-NOPE3-NOPE4-NOPE5',
      server_uid: serverUid(),
      version: '4.1.0',
    });
    expect(answer.body.data).toMatchObject({ code: 'NOT_FOUND', newest_covered: null, update_available: null, update_required: false });
  });
});

describe(`a customer names a device (${process.env.TEST_DB})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await createVersion(t, '4.1.0');
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('keeps the name its owner gives it through heartbeats, names it after its server again when cleared, and renames only their own', async () => {
    const owner = await t.signUpClient();
    const stranger = await t.signUpClient();
    const issued = await issueLicense(t, { user_email: owner.email });
    const server = serverUid();
    await callLicenseServer(t, 'activate', {
      license_key: issued.license_key,
      server_uid: server,
      hostname: 'edge-1',
      device_name: 'rack 4',
    });
    const [device] = (await t.api().get('/api/devices').set(bearer(owner.token)).expect(200)).body.data;
    expect(device).toMatchObject({ device_name: 'rack 4', custom_name: null, hostname: 'edge-1' });

    const renamed = await t.api().put(`/api/devices/${device.id}`).set(bearer(owner.token)).send({ name: '  Berlin studio  ' }).expect(200);
    expect(renamed.body).toMatchObject({
      success: true,
      message: 'Device renamed',
      data: { custom_name: 'Berlin studio', device_name: 'rack 4' },
    });
    // The server's next heartbeat sends its own name: the owner's stays.
    await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: server, device_name: 'rack 5' });
    const after = (await t.api().get('/api/devices').set(bearer(owner.token)).expect(200)).body.data[0];
    expect(after).toMatchObject({ custom_name: 'Berlin studio' });

    await t.api().put(`/api/devices/${device.id}`).set(bearer(stranger.token)).send({ name: 'mine now' }).expect(404);
    const long = await t
      .api()
      .put(`/api/devices/${device.id}`)
      .set(bearer(owner.token))
      .send({ name: 'x'.repeat(151) })
      .expect(400);
    expect(Object.keys(long.body.errors)).toEqual(['name']);
    await t.api().put(`/api/devices/${device.id}`).set(bearer(owner.token)).send({}).expect(400);
    expect((await t.api().get('/api/devices').set(bearer(owner.token)).expect(200)).body.data[0].custom_name).toBe('Berlin studio');

    const cleared = await t.api().put(`/api/devices/${device.id}`).set(bearer(owner.token)).send({ name: '' }).expect(200);
    expect(cleared.body.data.custom_name).toBeNull();
  });

  describe("the fleet's platforms and versions", () => {
    it('charts the versions the servers report, day by day, and the share on the newest stable release', async () => {
      const admin = await t.adminToken();
      // A newer stable release than any before; some servers already run it.
      await createVersion(t, '4.9.0');
      const issued = await issueLicense(t, { max_activations: 3 });
      for (const version of ['4.9.0', '4.9.0', '4.1.0'])
        await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid(), version });
      // The hourly snapshot keeps today's servers per version; past days read back from it.
      await t.app.get(DashboardService).snapshotActiveDevices();
      const today = new Date().toISOString().slice(0, 10);
      const byVersion = Object.fromEntries(
        (
          (await t.api().get('/api/admin/devices/stats').set(bearer(admin)).expect(200)).body.data.by_version as Array<{
            name: string;
            count: number;
          }>
        ).map(({ name, count }) => [name, count]),
      );
      expect(byVersion['4.9.0']).toBeGreaterThanOrEqual(2);
      const rows: Array<{ dimension: string; value: number }> = await t.dataSource.query(
        "SELECT dimension, value FROM daily_stats WHERE metric = 'servers_version' AND day = ?",
        [today],
      );
      expect(Object.fromEntries(rows.map(({ dimension, value }) => [dimension, Number(value)]))).toEqual(byVersion);

      const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
      const { fleet_versions: fleet } = (
        await t.api().get('/api/admin/stats/downloads').query({ from: week, to: today }).set(bearer(admin)).expect(200)
      ).body.data;
      expect(fleet).toMatchObject({ newest_stable: '4.9.0', on_newest_stable: byVersion['4.9.0'] });
      expect(fleet.versions).toEqual(expect.arrayContaining(['4.9.0', '4.1.0']));
      const last = fleet.days.at(-1);
      expect(last.day).toBe(today);
      expect(last.servers[fleet.versions.indexOf('4.9.0')]).toBe(byVersion['4.9.0']);
      expect(last.servers.reduce((sum: number, n: number) => sum + n, last.other)).toBe(fleet.servers);
    });

    it('keeps the version, OS and architecture each server reports, and what it left out as it was', async () => {
      const owner = await t.signUpClient();
      const issued = await issueLicense(t, { user_email: owner.email });
      const server = serverUid();
      const call = (action: 'activate' | 'validate', fields: Record<string, string | null>) =>
        callLicenseServer(t, action, { license_key: issued.license_key, server_uid: server, ...fields });
      expect((await call('activate', { version: '4.1.0', os: 'linux', arch: 'arm64' })).body.data.code).toBe('VALID');
      const reported = async () => {
        const [admin_] = (
          await t
            .api()
            .get(`/api/admin/devices/license/${issued.license_key}`)
            .set(bearer(await t.adminToken()))
            .expect(200)
        ).body.data.devices;
        const [own] = (await t.api().get('/api/devices').set(bearer(owner.token)).expect(200)).body.data;
        expect({ version: own.version, os: own.os, arch: own.arch }).toEqual({ version: admin_.version, os: admin_.os, arch: admin_.arch });
        return { version: own.version, os: own.os, arch: own.arch };
      };
      expect(await reported()).toEqual({ version: '4.1.0', os: 'linux', arch: 'arm64' });
      // A heartbeat that says nothing of its platform keeps it; one that moves to another release or architecture says so.
      await call('validate', { version: '4.2.0' });
      expect(await reported()).toEqual({ version: '4.2.0', os: 'linux', arch: 'arm64' });
      await call('validate', { version: '4.2.0', arch: 'x64' });
      expect(await reported()).toEqual({ version: '4.2.0', os: 'linux', arch: 'x64' });
      // A platform the portal does not know is a 400 naming the field, and changes nothing.
      for (const [field, value] of [
        ['os', 'plan9'],
        ['arch', 'X64'],
      ] as const) {
        const refused = await call('validate', { [field]: value }).expect(400);
        expect(refused.body.errors).toEqual({
          [field]: [`${field} must be one of the following values: ${field === 'os' ? 'windows, linux, macos' : 'x64, x86, arm64'}`],
        });
      }
      expect(await reported()).toEqual({ version: '4.2.0', os: 'linux', arch: 'x64' });
    });
  });
});
