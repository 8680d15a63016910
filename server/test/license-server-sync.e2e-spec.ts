import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createVersion, eventually } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/**
 * Two real portals: `server` is the external license server of `portal`. The portal pushes versions and licenses,
 * pulls licenses, devices and the activation log, revokes there on delete and deactivates there first.
 */
describe(`license-server sync (${process.env.TEST_DB})`, () => {
  const SYNC_TOKEN = 'sync-token-for-the-e2e-tests-0123456789';
  let portal: TestApp;
  let server: TestApp;
  let portalAdmin: string;
  let serverAdmin: string;

  const urlOf = (t: TestApp) => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const connect = async (url: string, api_token = SYNC_TOKEN) => {
    await portal.api().patch('/api/admin/settings').set(bearer(portalAdmin)).send({ key: 'license_server.url', value: url }).expect(200);
    await portal
      .api()
      .patch('/api/admin/settings')
      .set(bearer(portalAdmin))
      .send({ key: 'license_server.api_token', value: api_token })
      .expect(200);
  };
  /** Connects to the license server and waits for the full sync that starts with it. */
  const connectAndSync = async () => {
    await connect(urlOf(server));
    await eventually('the full sync completes', async () => {
      const status = await portal.api().get('/api/admin/license-server').set(bearer(portalAdmin)).expect(200);
      return status.body.data.full_sync?.status === 'completed' && status.body.data.full_sync.target_url === urlOf(server);
    });
  };
  const licenseOn = async (t: TestApp, token: string, key: string) => {
    const response = await t.api().get('/api/admin/licenses').query({ search: key }).set(bearer(token)).expect(200);
    return response.body.data.find((license: { license_key: string }) => license.license_key === key);
  };
  const syncLicenses = () => portal.api().get('/api/admin/licenses/sync').set(bearer(portalAdmin));
  /** A license made on the portal, once the background push has brought it to the license server. */
  const pushedLicense = async (fields: Parameters<typeof issueLicense>[1] = {}) => {
    const license = await issueLicense(portal, fields);
    await eventually('the license reaches the license server', async () => !!(await licenseOn(server, serverAdmin, license.license_key)));
    return license;
  };
  /** One streaming server activated on the license server, and the portal synced so it knows the device. */
  const activatedDevice = async (licenseKey: string) => {
    const uid = serverUid();
    await callLicenseServer(server, 'activate', { license_key: licenseKey, server_uid: uid }).expect(200);
    await syncLicenses().expect(200);
    return uid;
  };
  const deactivateOnPortal = (license_key: string, server_uid: string) =>
    portal.api().post('/api/admin/devices/deactivate').set(bearer(portalAdmin)).send({ license_key, server_uid });
  const syncVersions = () => portal.api().get('/api/admin/versions/sync').set(bearer(portalAdmin));

  beforeAll(async () => {
    server = await startTestApp({ LICENSE_SERVER_SYNC_TOKEN: SYNC_TOKEN });
    portal = await startTestApp({ LICENSE_SERVER_SYNC_WORKER_SECONDS: '1' });
    [portalAdmin, serverAdmin] = await Promise.all([portal.adminToken(), server.adminToken()]);
  });
  afterAll(async () => {
    for (const t of [portal, server]) expect(t.statuses.filter((status) => status >= 500 && status !== 502)).toEqual([]);
    await portal.close();
    await server.close();
  });

  describe('while the portal is its own license server', () => {
    it('confirms versions and licenses as live here, without calling anyone', async () => {
      const version = await createVersion(portal, '1.0.0', { release_date: '2025-01-01' });
      expect(version.sync_status).toBe('pending');
      const versions = await syncVersions().expect(200);
      expect(versions.body).toMatchObject({ success: true, data: { synced_count: 0, updated_count: 1 } });
      expect(versions.body.message).toBe('Sync completed! 0 new versions, 1 updated');
      const list = await portal.api().get('/api/admin/versions').set(bearer(portalAdmin)).expect(200);
      expect(list.body.data[0].sync_status).toBe('synced');
      expect(Date.parse(list.body.meta.last_sync_at)).toBeGreaterThan(Date.now() - 60_000);

      const status = await portal.api().get('/api/admin/license-server').set(bearer(portalAdmin)).expect(200);
      expect(status.body.data).toMatchObject({ external: false, url: null, last_error: null });
      const licenses = await syncLicenses().expect(200);
      expect(licenses.body.data).toMatchObject({ synced_new: 0, pushed: 0, devices_updated: 0, remote_logs_added: 0 });
    });
  });

  describe('with an external license server', () => {
    beforeAll(() => connectAndSync());

    it('pushes versions with their keys; an edit makes one pending until it is pushed again', async () => {
      // The full sync that started with the connection pushed 1.0.0 already.
      expect((await server.api().get('/api/admin/versions').set(bearer(serverAdmin)).expect(200)).body.data).toEqual([
        expect.objectContaining({ version: '1.0.0' }),
      ]);
      await createVersion(portal, '2.0.0', {
        release_date: '2025-06-01',
        secret_hash: 'secret-2',
        encryption_key: 'enc-2',
        is_latest: true,
      });
      const first = await syncVersions().expect(200);
      expect(first.body.data).toEqual({ synced_count: 1, updated_count: 1 });
      const onServer = await server.api().get('/api/admin/versions').set(bearer(serverAdmin)).expect(200);
      const pushed = onServer.body.data.find((v: { version: string }) => v.version === '2.0.0');
      expect(pushed).toMatchObject({ secret_hash: 'secret-2', encryption_key: 'enc-2', is_latest: true, sync_status: 'synced' });

      const local = await portal.api().get('/api/admin/versions').query({ search: '2.0.0' }).set(bearer(portalAdmin)).expect(200);
      const id = local.body.data[0].id;
      await portal.api().put(`/api/admin/versions/${id}`).set(bearer(portalAdmin)).send({ changelog: 'Faster startup' }).expect(200);
      const edited = await portal.api().get('/api/admin/versions').query({ search: '2.0.0' }).set(bearer(portalAdmin)).expect(200);
      expect(edited.body.data[0].sync_status).toBe('pending');
      expect(edited.body.meta.last_sync_at).not.toBeNull();

      const one = await portal.api().post(`/api/admin/versions/${id}/sync`).set(bearer(portalAdmin)).expect(200);
      expect(one.body.data).toEqual({ synced_count: 0, updated_count: 1 });
      const again = await server.api().get('/api/admin/versions').query({ search: 'Faster' }).set(bearer(serverAdmin)).expect(200);
      expect(again.body.data.map((v: { version: string }) => v.version)).toEqual(['2.0.0']);
    });

    it('pushes a license made here, mirrors the seats and devices the server counts, and pulls its activation log', async () => {
      const license = await pushedLicense({ max_activations: 3, user_email: 'buyer@portal.test' });
      await eventually(
        'the license shows as synced',
        async () => (await licenseOn(portal, portalAdmin, license.license_key)).synced_at !== null,
      );

      const uid = serverUid();
      const activated = await callLicenseServer(server, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
      expect(activated.body.data.code).toBe('VALID');
      await callLicenseServer(server, 'validate', { license_key: license.license_key, server_uid: uid }).expect(200);

      const sync = await syncLicenses().expect(200);
      expect(sync.body.data).toMatchObject({ synced_new: 0, updated_existing: 1, devices_updated: 1 });
      expect(sync.body.data.remote_logs_added).toBeGreaterThanOrEqual(2);
      expect((await licenseOn(portal, portalAdmin, license.license_key)).current_activations).toBe(1);
      const devices = await portal.api().get(`/api/admin/devices/license/${license.license_key}`).set(bearer(portalAdmin)).expect(200);
      expect(devices.body.data.devices).toEqual([
        expect.objectContaining({ server_uid: uid, status: 'active', hostname: 'stream-01.example.net' }),
      ]);

      // The log is pulled once: a second sync adds only what is new.
      const second = await syncLicenses().expect(200);
      expect(second.body.data).toMatchObject({ synced_new: 0, updated_existing: 0, devices_updated: 0, remote_logs_added: 0 });
    });

    it('takes over licenses made on the license server', async () => {
      const made = await issueLicense(server, { user_email: 'elsewhere@portal.test' });
      const sync = await syncLicenses().expect(200);
      expect(sync.body.data.synced_new).toBe(1);
      expect(sync.body.message).toBe(`Sync completed! 1 new licenses, ${sync.body.data.updated_existing} updated`);
      expect(await licenseOn(portal, portalAdmin, made.license_key)).toMatchObject({
        user_email: 'elsewhere@portal.test',
        status: 'active',
      });
    });

    it('revokes on the license server when an admin revokes here, so its streaming servers are refused', async () => {
      const license = await pushedLicense();
      const uid = serverUid();
      await callLicenseServer(server, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
      const local = await licenseOn(portal, portalAdmin, license.license_key);
      await portal.api().post(`/api/admin/licenses/${local.id}/revoke`).set(bearer(portalAdmin)).expect(200);
      await eventually('the server refuses the revoked license', async () => {
        const answer = await callLicenseServer(server, 'validate', { license_key: license.license_key, server_uid: uid });
        return answer.body.data.code === 'REVOKED';
      });
    });

    it('deactivates a device on the license server before it gives the seat back here', async () => {
      const license = await pushedLicense({ max_activations: 1 });
      const uid = await activatedDevice(license.license_key);
      await deactivateOnPortal(license.license_key, uid).expect(200);
      // The seat is free on the license server: another streaming server can take it there.
      const other = await callLicenseServer(server, 'activate', { license_key: license.license_key, server_uid: serverUid() }).expect(200);
      expect(other.body.data.code).toBe('VALID');
    });

    it('revokes on the license server when a license is deleted here, and says so', async () => {
      const license = await pushedLicense();
      const local = await licenseOn(portal, portalAdmin, license.license_key);
      const deleted = await portal.api().delete(`/api/admin/licenses/${local.id}`).set(bearer(portalAdmin)).expect(200);
      expect(deleted.body.data.server_revocation_success).toBe(true);
      expect((await licenseOn(server, serverAdmin, license.license_key)).status).toBe('revoked');
    });

    /** The license server's devices of a key, once it has freed every seat of the license. */
    const freedOnServer = async (licenseKey: string) => {
      await eventually(
        'the license server frees the seats',
        async () => (await licenseOn(server, serverAdmin, licenseKey)).current_activations === 0,
      );
      const devices = await server.api().get(`/api/admin/devices/license/${licenseKey}`).set(bearer(serverAdmin)).expect(200);
      return devices.body.data.devices as Array<{ server_uid: string; deactivated_at: string | null }>;
    };

    it("deactivates the license server's devices when a revocation here is pushed to it", async () => {
      const license = await pushedLicense({ max_activations: 2 });
      const uids = [serverUid(), serverUid()];
      for (const uid of uids) {
        await callLicenseServer(server, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
      }
      const local = await licenseOn(portal, portalAdmin, license.license_key);
      await portal.api().post(`/api/admin/licenses/${local.id}/revoke`).set(bearer(portalAdmin)).expect(200);
      const devices = await freedOnServer(license.license_key);
      expect(devices.map((device) => device.deactivated_at)).toEqual([expect.any(String), expect.any(String)]);
    });

    it("deactivates the license server's devices when a license deleted here is revoked there", async () => {
      const license = await pushedLicense();
      const uid = serverUid();
      await callLicenseServer(server, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
      const local = await licenseOn(portal, portalAdmin, license.license_key);
      await portal.api().delete(`/api/admin/licenses/${local.id}`).set(bearer(portalAdmin)).expect(200);
      expect(await freedOnServer(license.license_key)).toEqual([
        expect.objectContaining({ server_uid: uid, deactivated_at: expect.any(String) }),
      ]);
    });
  });

  describe('when the license server fails', () => {
    afterAll(() => connectAndSync());

    it('answers 502 with the reason for a wrong token, and keeps it as the last error', async () => {
      await connect(urlOf(server), 'not-the-token-not-the-token-0000');
      const refused = await syncLicenses().expect(502);
      expect(refused.body.message).toBe(`The license server at ${urlOf(server)} answered 401: Invalid sync token`);
      const status = await portal.api().get('/api/admin/license-server').set(bearer(portalAdmin)).expect(200);
      expect(status.body.data).toMatchObject({ external: true, url: urlOf(server), last_error: refused.body.message });
    });

    it('deletes here but reports that the license server could not revoke, when it cannot be reached', async () => {
      const license = await issueLicense(portal);
      const closed = await closedPortUrl();
      await connect(closed);
      const local = await licenseOn(portal, portalAdmin, license.license_key);
      expect(local.synced_at).toBeNull();
      const deleted = await portal.api().delete(`/api/admin/licenses/${local.id}`).set(bearer(portalAdmin)).expect(200);
      expect(deleted.body.data.server_revocation_success).toBe(false);
      const sync = await syncVersions().expect(502);
      expect(sync.body.message).toMatch(new RegExp(`^The license server at ${closed} cannot be reached \\(ECONNREFUSED\\)$`));
    });

    it('refuses to deactivate a device here while the license server cannot confirm it, and changes nothing', async () => {
      await connect(urlOf(server));
      const license = await pushedLicense({ max_activations: 2 });
      const uid = await activatedDevice(license.license_key);
      await connect(await closedPortUrl());
      await deactivateOnPortal(license.license_key, uid).expect(502);
      const devices = await portal.api().get(`/api/admin/devices/license/${license.license_key}`).set(bearer(portalAdmin)).expect(200);
      expect(devices.body.data.devices[0]).toMatchObject({ server_uid: uid, deactivated_at: null });
    });
  });

  describe('the sync API', () => {
    it('needs the token, and is closed on a portal without LICENSE_SERVER_SYNC_TOKEN', async () => {
      await server.api().get('/api/license-server/sync/licenses').expect(401);
      await server
        .api()
        .get('/api/license-server/sync/licenses')
        .set(bearer('x'.repeat(40)))
        .expect(401);
      await server.api().get('/api/license-server/sync/licenses').set(bearer(serverAdmin)).expect(401);
      const closed = await portal.api().get('/api/license-server/sync/licenses').set(bearer(SYNC_TOKEN)).expect(403);
      expect(closed.body.message).toBe('This portal does not accept license-server sync: LICENSE_SERVER_SYNC_TOKEN is not set');
    });

    const pushToServer = (licenses: object[]) =>
      server.api().put('/api/license-server/sync/licenses').set(bearer(SYNC_TOKEN)).send({ licenses });
    const pushedItem = (fields: object) => ({
      product_name: 'X',
      user_email: 'a@b.test',
      status: 'active',
      expires_at: '2030-01-01T00:00:00.000Z',
      max_activations: 1,
      is_trial: false,
      ...fields,
    });

    it('answers checksums of licenses and versions by key, and refuses an unknown kind with 400', async () => {
      const made = await issueLicense(server);
      await createVersion(server, '9.0.0', { release_date: '2025-09-01' });
      const page = await server
        .api()
        .get('/api/license-server/sync/checksums')
        .query({ kind: 'licenses' })
        .set(bearer(SYNC_TOKEN))
        .expect(200);
      expect(page.body.data).toContainEqual({ id: made.id, key: made.license_key, checksum: expect.stringMatching(/^[\w-]{22}$/) });
      const versions = await server
        .api()
        .get('/api/license-server/sync/checksums?kind=versions&limit=1')
        .set(bearer(SYNC_TOKEN))
        .expect(200);
      expect(versions.body.data).toHaveLength(1);
      const refused = await server.api().get('/api/license-server/sync/checksums?kind=devices').set(bearer(SYNC_TOKEN)).expect(400);
      expect(refused.body.message).toBe('kind must be one of the following values: licenses, versions');
    });

    it('takes pushed devices onto free seats, refuses unknown keys and full licenses, and refuses a malformed push with 400', async () => {
      const license = await issueLicense(server, { max_activations: 1 });
      const device = (license_key: string) => ({
        license_key,
        server_uid: serverUid(),
        status: 'active',
        activated_at: new Date().toISOString(),
      });
      const pushDevices = (devices: object[]) =>
        server.api().put('/api/license-server/sync/devices').set(bearer(SYNC_TOKEN)).send({ devices });
      const first = device(license.license_key);
      const pushed = await pushDevices([first, first, device(license.license_key), device('SH-NOT-KNOWN-HERE')]).expect(200);
      expect(pushed.body.data).toEqual({ created: 1, unchanged: 1, refused: 2 });
      expect((await licenseOn(server, serverAdmin, license.license_key)).current_activations).toBe(1);
      await pushDevices([{ ...device(license.license_key), activated_at: 'yesterday', status: 'gone' }]).expect(400);
      expect((await licenseOn(server, serverAdmin, license.license_key)).current_activations).toBe(1);
    });

    it('refuses a malformed push with 400 and stores nothing', async () => {
      const before = await server.api().get('/api/license-server/sync/licenses').set(bearer(SYNC_TOKEN)).expect(200);
      await pushToServer([pushedItem({ license_key: 'SH-1', user_email: 'not-an-email', expires_at: 'soon', max_activations: 0 })]).expect(
        400,
      );
      await pushToServer([pushedItem({ license_key: 'SH-2', expires_at: '10000-01-01T00:00:00Z' })]).expect(400);
      const after = await server.api().get('/api/license-server/sync/licenses').set(bearer(SYNC_TOKEN)).expect(200);
      expect(after.body.data).toEqual(before.body.data);
    });

    it('takes a pushed key in capitals, as keys are stored, and a key pushed twice in one batch once, as last pushed', async () => {
      const key = `SH-PUSHED-${Date.now()}`;
      const pushed = await pushToServer([
        pushedItem({ license_key: ` ${key.toLowerCase()} `, max_activations: 2 }),
        pushedItem({ license_key: key, max_activations: 4 }),
      ]).expect(200);
      expect(pushed.body.data).toMatchObject({ created: 1, updated: 0 });
      expect(pushed.body.data.licenses).toEqual([expect.objectContaining({ license_key: key, max_activations: 4 })]);
      const again = await pushToServer([pushedItem({ license_key: key.toLowerCase(), max_activations: 5 })]).expect(200);
      expect(again.body.data).toMatchObject({ created: 0, updated: 1 });
      expect((await licenseOn(server, serverAdmin, key)).max_activations).toBe(5);
    });
  });
});

/** A local URL where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}
