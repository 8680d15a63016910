import { execFile, execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { canonicalJson } from '../src/modules/licenses/license-signing.service';
import { rolloutBucket } from '../src/modules/versions/rollout';
import { asBuffer, createVersion, sha256, someBytes, uploadFile, type UploadedFile } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid, setDate } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** Waits until the clock has passed `instant`, so what is published next is published after it. */
async function clockPast(instant: string): Promise<void> {
  while (Date.now() <= new Date(instant).getTime()) await new Promise((resolve) => setImmediate(resolve));
}

const run = promisify(execFile);

/** The per-key limit the activation and update calls share here. */
const CALLS_PER_KEY = 30;

describe(`the update API for streaming servers (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  /** When 4.1.0 was published: a license whose updates end then covers it and nothing later. */
  let firstPublished: string;
  const files: Record<string, UploadedFile & { bytes: Buffer }> = {};
  let address = 0;
  /** Each call from its own address, so the per-address limit stays out of the way (the per-key one is tested). */
  const from = () => `10.41.${Math.floor(++address / 250)}.${address % 250}`;

  const upload = async (versionId: number, name: string, os = 'linux', architecture = 'x64') => {
    const bytes = someBytes(700);
    files[name] = { ...(await uploadFile(t, { version_id: versionId, os_type: os, architecture, bytes, name, file_name: name })), bytes };
  };

  /** A customer with a license (fields as issueLicense takes them) and an activated server. */
  async function licensedServer(fields: Parameters<typeof issueLicense>[1] = {}) {
    const customer = await t.signUpClient();
    const issued = await issueLicense(t, { user_email: customer.email, max_activations: 3, ...fields });
    const server = serverUid();
    const activated = await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
    expect(activated.body.data.code).toBe('VALID');
    return { customer, key: issued.license_key, server, id: issued.id };
  }

  const upgrade = (key: string | null, server: string | null, query: Record<string, string>) => {
    let call = t.api().get('/api/releases/upgrade').query(query).set('X-Forwarded-For', from());
    if (key !== null) call = call.set('Authorization', `License ${key}`);
    if (server !== null) call = call.set('X-Server-Uid', server);
    return call;
  };
  const latest = (key: string, platform: string, query: Record<string, string> = {}) =>
    t.api().get(`/api/releases/latest/${platform}`).query(query).set('X-Forwarded-For', from()).set('Authorization', `License ${key}`);
  const local = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  beforeAll(async () => {
    t = await startTestApp({ ACTIVATION_CALLS_PER_KEY_PER_MINUTE: String(CALLS_PER_KEY), TRUST_PROXY: 'loopback' });
    admin = await t.adminToken();
    const v410 = await createVersion(t, '4.1.0');
    firstPublished = v410.published_at as unknown as string;
    await clockPast(firstPublished);
    const v420 = await createVersion(t, '4.2.0');
    const beta = await createVersion(t, '4.3.0-beta.1', { channel: 'beta' });
    const v500 = await createVersion(t, '5.0.0');
    await upload(v410.id, 'streamhub-4.1.0.tar.gz');
    await upload(v420.id, 'streamhub_4.2.0_amd64.deb');
    await upload(v420.id, 'streamhub-4.2.0.tar.gz');
    await upload(v420.id, 'streamhub-4.2.0.zip', 'windows');
    await upload(beta.id, 'streamhub-4.3.0-beta.1.tar.gz');
    // 5.0.0 ships for Windows only: a Linux server stays on 4.2.0.
    await upload(v500.id, 'streamhub-5.0.0.zip', 'windows');
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('offers the newest covered release with a build for the platform: its files, signed links and signed manifest', async () => {
    const { key, server } = await licensedServer();
    const answer = await upgrade(key, server, { current: '4.1.0', os: 'linux', arch: 'x64' }).expect(200);
    const offer = answer.body.data;
    expect(offer).toMatchObject({ version: '4.2.0', channel: 'stable', current: '4.1.0', update_required: false });
    // Both Linux builds, by name; the Windows one is not this server's.
    expect(offer.files.map((file: { name: string }) => file.name)).toEqual(['streamhub-4.2.0.tar.gz', 'streamhub_4.2.0_amd64.deb']);
    for (const file of offer.files) {
      const uploaded = files[file.name];
      expect(file).toMatchObject({ os: 'linux', arch: 'x64', size: 700, sha256: uploaded.file_hash });
      expect(new Date(file.expires_at).getTime()).toBeGreaterThan(Date.now());
      // The link downloads the exact bytes without a token.
      const bytes = (await t.api().get(local(file.url)).buffer(true).parse(asBuffer).expect(200)).body as Buffer;
      expect(sha256(bytes)).toBe(file.sha256);
      expect(bytes.equals(uploaded.bytes)).toBe(true);
    }
    // The manifest is signed by the key its kid names, and lists the files with the same checksums.
    const { manifest, signature, kid } = offer.manifest;
    const keys = (await t.api().get('/api/license-server/public-keys').expect(200)).body.data.keys as Array<{
      kid: string;
      public_key_pem: string;
    }>;
    const key_ = createPublicKey(keys.find((candidate) => candidate.kid === kid)!.public_key_pem);
    expect(verify(null, Buffer.from(canonicalJson(manifest), 'utf8'), key_, Buffer.from(signature, 'base64'))).toBe(true);
    expect(manifest).toMatchObject({ version: '4.2.0', channel: 'stable', published_at: offer.published_at });
    for (const file of offer.files)
      expect(manifest.files).toContainEqual({ os: 'linux', arch: 'x64', name: file.name, size: file.size, sha256: file.sha256 });
  });

  it('answers 204 to a server on the newest release it may have, and offers another platform what it has', async () => {
    const { key, server } = await licensedServer();
    const current = await upgrade(key, server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(204);
    expect(current.text).toBe('');
    await upgrade(key, server, { current: '6.0.0', os: 'linux', arch: 'x64' }).expect(204);
    expect((await upgrade(key, server, { current: '4.2.0', os: 'windows', arch: 'x64' }).expect(200)).body.data.version).toBe('5.0.0');
    await upgrade(key, server, { current: '4.1.0', os: 'macos', arch: 'arm64' }).expect(204);
    // Without `current`: the newest it may have.
    expect((await upgrade(key, server, { os: 'linux', arch: 'x64' }).expect(200)).body.data.version).toBe('4.2.0');
  });

  it('offers a beta only to a server that follows beta under a license granted it, and keeps within the constraint', async () => {
    const stable = await licensedServer();
    await upgrade(stable.key, stable.server, { current: '4.2.0', os: 'linux', arch: 'x64', channel: 'beta' }).expect(204);
    const beta = await licensedServer({ channel: 'beta' });
    await upgrade(beta.key, beta.server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(204);
    const offered = await upgrade(beta.key, beta.server, { current: '4.2.0', os: 'linux', arch: 'x64', channel: 'beta' }).expect(200);
    expect(offered.body.data).toMatchObject({ version: '4.3.0-beta.1', channel: 'beta' });
    expect(offered.body.data.files.map((file: { name: string }) => file.name)).toEqual(['streamhub-4.3.0-beta.1.tar.gz']);
    // Staying on 4.1.x: nothing newer; on 4.x: the newest within it.
    await upgrade(beta.key, beta.server, { current: '4.1.0', os: 'linux', arch: 'x64', constraint: '4.1.x' }).expect(204);
    const within = await upgrade(beta.key, beta.server, { current: '4.1.0', os: 'windows', arch: 'x64', constraint: '4.x' }).expect(200);
    expect(within.body.data.version).toBe('4.2.0');
  });

  it('offers nothing published after the license’s updates ended', async () => {
    const { key, server } = await licensedServer({ updates_until: firstPublished });
    await upgrade(key, server, { current: '4.1.0', os: 'linux', arch: 'x64' }).expect(204);
    expect((await upgrade(key, server, { os: 'linux', arch: 'x64' }).expect(200)).body.data.version).toBe('4.1.0');
    // An expired license still reaches what it covers.
    const expired = await licensedServer({ updates_until: firstPublished });
    await setDate(t, 'licenses', expired.id, 'expires_at', new Date(Date.now() - 60_000));
    expect((await upgrade(expired.key, expired.server, { os: 'linux', arch: 'x64' }).expect(200)).body.data.version).toBe('4.1.0');
  });

  it('says an update is required below the oldest supported release', async () => {
    const { key, server } = await licensedServer();
    await t
      .api()
      .patch('/api/admin/settings')
      .set(bearer(admin))
      .send({ key: 'app_info.min_supported_version', value: '4.2.0' })
      .expect(200);
    try {
      const answer = await upgrade(key, server, { current: '4.1.0', os: 'linux', arch: 'x64' }).expect(200);
      expect(answer.body.data).toMatchObject({ version: '4.2.0', update_required: true });
    } finally {
      await t.api().patch('/api/admin/settings').set(bearer(admin)).send({ key: 'app_info.min_supported_version', value: '' }).expect(200);
    }
  });

  it('answers the same offer with the same ETag, and 304 to If-None-Match', async () => {
    const { key, server } = await licensedServer();
    const query = { current: '4.1.0', os: 'linux', arch: 'x64' };
    const first = await upgrade(key, server, query).expect(200);
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    let again = await upgrade(key, server, query).set('If-None-Match', etag);
    // The links' expiry moves on each whole minute: a call across that boundary gets the new offer.
    if (again.status === 200) again = await upgrade(key, server, query).set('If-None-Match', again.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('refuses callers without a usable license key or seat, each with its code', async () => {
    const { key, server } = await licensedServer();
    const query = { current: '4.1.0', os: 'linux', arch: 'x64' };
    const code = async (call: ReturnType<typeof upgrade>, status: number) => (await call.expect(status)).body.code;
    expect(await code(upgrade(null, server, query), 401)).toBe('LICENSE_KEY_REQUIRED');
    const session = (await t.signUpClient()).token;
    expect(await code(upgrade(null, server, query).set(bearer(session)), 401)).toBe('LICENSE_KEY_REQUIRED');
    expect(await code(upgrade('SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', server, query), 401)).toBe('NOT_FOUND');
    expect(await code(upgrade(`SH-${'X'.repeat(500)}`, server, query), 401)).toBe('NOT_FOUND');
    expect(await code(upgrade(key, serverUid(), query), 403)).toBe('NOT_ACTIVATED');
    const missing = await upgrade(key, null, query).expect(400);
    expect(missing.body.message).toBe('X-Server-Uid is required: the id the server activated with');
    await upgrade(key, 'bad uid!', query).expect(400);
    // Bad input is a 400 naming the field.
    expect((await upgrade(key, server, { ...query, os: 'plan9' }).expect(400)).body.errors).toHaveProperty('os');
    expect((await upgrade(key, server, { ...query, current: 'latest' }).expect(400)).body.errors).toHaveProperty('current');
    expect((await upgrade(key, server, { ...query, constraint: '>>4' }).expect(400)).body.errors).toHaveProperty('constraint');
    expect((await upgrade(key, server, { ...query, channel: 'nightly' }).expect(400)).body.errors).toHaveProperty('channel');

    // A deactivated server holds no seat; a revoked license reaches nothing.
    await callLicenseServer(t, 'deactivate', { license_key: key, server_uid: server });
    expect(await code(upgrade(key, server, query), 403)).toBe('NOT_ACTIVATED');
    const revoked = await licensedServer();
    await t.api().post(`/api/admin/licenses/${revoked.id}/revoke`).set(bearer(admin)).send({});
    const status = (await t.api().get(`/api/admin/licenses/${revoked.id}`).set(bearer(admin)).expect(200)).body.data.status;
    expect(status).toBe('revoked');
    expect(await code(upgrade(revoked.key, revoked.server, query), 403)).toBe('REVOKED');
  });

  it('refuses a license whose account was deleted: no one to sign its links for', async () => {
    const issued = await issueLicense(t, { user_email: 'nobody-here@portal.test' });
    const server = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: server, version: '4.1.0' });
    const refused = await upgrade(issued.license_key, server, { current: '4.1.0', os: 'linux', arch: 'x64' }).expect(403);
    expect(refused.body.code).toBe('NO_ACCOUNT');
  });

  it('shares the activation API’s limit per license key', async () => {
    const { key, server } = await licensedServer();
    // One call (the activation) is spent; the update calls take the rest.
    for (let i = 1; i < CALLS_PER_KEY; i++) await upgrade(key, server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(204);
    const refused = await upgrade(key, server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const beat = await t
      .api()
      .post('/api/license-server/validate')
      .set('X-Forwarded-For', from())
      .send({ license_key: key, server_uid: server, nonce: 'n'.repeat(16) });
    expect(beat.status).toBe(429);
  });

  it('takes a yanked release out of the offers at once', async () => {
    const { key, server } = await licensedServer();
    const v = await createVersion(t, '4.2.1');
    await upload(v.id, 'streamhub-4.2.1.tar.gz');
    expect((await upgrade(key, server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(200)).body.data.version).toBe('4.2.1');
    await t.api().put(`/api/admin/versions/${v.id}`).set(bearer(admin)).send({ state: 'yanked' }).expect(200);
    await upgrade(key, server, { current: '4.2.0', os: 'linux', arch: 'x64' }).expect(204);
  });

  describe('GET /api/releases/latest/{os}/{arch}', () => {
    it('redirects a licensed script to the first build’s signed link, the offer in the body', async () => {
      const { key } = await licensedServer();
      const answer = await latest(key, 'linux/x64').redirects(0).expect(302);
      expect(answer.body.data).toMatchObject({ version: '4.2.0', current: null });
      expect(answer.headers.location).toBe(answer.body.data.files[0].url);
      const bytes = (await t.api().get(local(answer.headers.location)).buffer(true).parse(asBuffer).expect(200)).body as Buffer;
      expect(bytes.equals(files['streamhub-4.2.0.tar.gz'].bytes)).toBe(true);
      expect((await latest(key, 'windows/x64').redirects(0).expect(302)).body.data.version).toBe('5.0.0');
      expect((await latest(key, 'linux/x64', { constraint: '~4.1' }).redirects(0).expect(302)).body.data.version).toBe('4.1.0');
    });

    it('answers 404 where no covered release has a build, 400 for an unknown platform, and checks a server id when sent', async () => {
      const { key, server } = await licensedServer();
      expect((await latest(key, 'macos/arm64').expect(404)).body.message).toBe('No release you may have has a build for macos arm64');
      expect((await latest(key, 'beos/x64').expect(400)).body.errors).toHaveProperty('os');
      await latest(key, 'linux/x64').set('X-Server-Uid', server).redirects(0).expect(302);
      expect((await latest(key, 'linux/x64').set('X-Server-Uid', serverUid()).expect(403)).body.code).toBe('NOT_ACTIVATED');
      expect((await t.api().get('/api/releases/latest/linux/x64').set('X-Forwarded-For', from()).expect(401)).body.code).toBe(
        'LICENSE_KEY_REQUIRED',
      );
    });
  });

  describe("the test archive's update script, run as a customer would", () => {
    let dir: string;
    let portal: string;
    const script = () => join(dir, 'streamhub-license-test', 'streamhub-update.mjs');
    const update = (key: string, server: string, ...extra: string[]) =>
      run(process.execPath, [
        script(),
        '--url',
        portal,
        '--key',
        key,
        '--server-uid',
        server,
        '--os',
        'linux',
        '--arch',
        'x64',
        '--out',
        dir,
        ...extra,
      ]);
    type Failure = { code: number; stdout: string; stderr: string };

    beforeAll(async () => {
      portal = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      dir = mkdtempSync(join(tmpdir(), 'update-script-'));
      const tarball = await t.api().get('/api/license-server/test-script.tar.gz').buffer(true).parse(asBuffer).expect(200);
      writeFileSync(join(dir, 'archive.tar.gz'), tarball.body as Buffer);
      execFileSync('tar', ['-xzf', 'archive.tar.gz'], { cwd: dir });
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('asks for an update, downloads it and keeps it only once signature and checksum hold', async () => {
      const { key, server } = await licensedServer();
      const done = await update(key, server, '--current', '4.1.0', '--constraint', '~4.2.0');
      const kept = join(dir, 'streamhub-4.2.0.tar.gz');
      expect(done.stdout).toBe(`ok ${kept}\n`);
      expect(readFileSync(kept).equals(files['streamhub-4.2.0.tar.gz'].bytes)).toBe(true);
      expect((await update(key, server, '--current', '4.2.0')).stdout).toBe('current\n');
    });

    it('refuses a build whose stored byte was changed, and keeps nothing of it', async () => {
      const { key, server } = await licensedServer();
      // A file never downloaded yet: a small file's bytes are kept in memory once sent (stored objects never change).
      const version = await createVersion(t, '4.2.5');
      await upload(version.id, 'streamhub-4.2.5.tar.gz');
      const [row] = await t.dataSource.query('SELECT storage_key FROM distribution_files WHERE id = ?', [
        files['streamhub-4.2.5.tar.gz'].id,
      ]);
      const stored = join(t.config.storage.dir, row.storage_key);
      const bytes = readFileSync(stored);
      bytes[10] ^= 0x01;
      writeFileSync(stored, bytes);
      const refused = (await update(key, server, '--current', '4.2.0').catch((error: Failure) => error)) as Failure;
      expect(refused.code).toBe(3);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^REFUSED: streamhub-4\.2\.5\.tar\.gz does not match the manifest/);
      expect(existsSync(join(dir, 'streamhub-4.2.5.tar.gz'))).toBe(false);
      expect(existsSync(join(dir, 'streamhub-4.2.5.tar.gz.part'))).toBe(false);
      await t.api().put(`/api/admin/versions/${version.id}`).set(bearer(admin)).send({ state: 'yanked' }).expect(200);
    });

    it('says so when the portal refuses the license', async () => {
      const refused = (await update('SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', serverUid()).catch((error: Failure) => error)) as Failure;
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^REFUSED by the portal: NOT_FOUND: Unknown license key/);
    });
  });

  describe('staged rollouts', () => {
    const rollout = (id: number) => t.api().get(`/api/admin/versions/${id}/rollout`).set(bearer(admin));
    const setRollout = (id: number, body: object) => t.api().put(`/api/admin/versions/${id}/rollout`).set(bearer(admin)).send(body);

    it('offers a release to its share of servers, chosen by their ids, and shows how far it reached; pause and finish', async () => {
      // Servers on both sides of a 50 % rollout, on two licenses (the per-key limit holds a few calls each).
      const inside: string[] = [];
      const outside: string[] = [];
      while (inside.length < 4 || outside.length < 4) {
        const uid = serverUid();
        const side = rolloutBucket(uid) < 50 ? inside : outside;
        if (side.length < 4) side.push(uid);
      }
      const customer = await t.signUpClient();
      const keys = [
        (await issueLicense(t, { user_email: customer.email, max_activations: 4 })).license_key,
        (await issueLicense(t, { user_email: customer.email, max_activations: 4 })).license_key,
      ];
      const servers = [...inside, ...outside].map((uid, i) => ({ uid, key: keys[i % 2], inside: inside.includes(uid) }));
      for (const { uid, key } of servers) await callLicenseServer(t, 'activate', { license_key: key, server_uid: uid, version: '4.2.0' });

      // A draft at 50 %, then published: no moment at which every server is offered it.
      const draft = await createVersion(t, '4.2.7', { state: 'draft' });
      await upload(draft.id, 'streamhub-4.2.7.tar.gz');
      const set = await setRollout(draft.id, { rollout_percent: 50 }).expect(200);
      expect(set.body).toMatchObject({
        success: true,
        message: 'Rollout updated',
        data: { version: '4.2.7', rollout_percent: 50, rollout_paused: false, offered: 0 },
      });
      await t.api().put(`/api/admin/versions/${draft.id}`).set(bearer(admin)).send({ state: 'published' }).expect(200);

      const offered = async () => {
        const answers = await Promise.all(
          servers.map(async ({ uid, key }) => (await upgrade(key, uid, { current: '4.2.0', os: 'linux', arch: 'x64' })).status),
        );
        return servers.map(({ uid }, i) => [uid, answers[i]]);
      };
      const expected = (inside: number, outside: number) => servers.map(({ uid, inside: isInside }) => [uid, isInside ? inside : outside]);
      expect(await offered()).toEqual(expected(200, 204));
      // The same answer every time.
      expect(await offered()).toEqual(expected(200, 204));
      // A caller that names no server (a script) is not in any rollout.
      expect((await latest(keys[0], 'linux/x64').redirects(0).expect(302)).body.data.version).toBe('4.2.0');

      // Reached: four servers offered it; one installs it and reports it.
      await callLicenseServer(t, 'validate', { license_key: servers[0].key, server_uid: servers[0].uid, version: '4.2.7' });
      expect((await rollout(draft.id).expect(200)).body.data).toMatchObject({ rollout_percent: 50, offered: 4, reporting: 1 });

      // Paused: offered to none; finished: to all.
      await setRollout(draft.id, { rollout_paused: true }).expect(200);
      expect(await offered()).toEqual(expected(204, 204));
      const finished = await setRollout(draft.id, { rollout_percent: 100, rollout_paused: false }).expect(200);
      expect(finished.body.data).toMatchObject({ rollout_percent: 100, rollout_paused: false });
      expect(await offered()).toEqual(expected(200, 200));
      expect((await rollout(draft.id).expect(200)).body.data).toMatchObject({ offered: 8, reporting: 1 });
      const version = (await t.api().get(`/api/admin/versions/${draft.id}`).set(bearer(admin)).expect(200)).body.data;
      expect(version).toMatchObject({ rollout_percent: 100, rollout_paused: false, sync_status: 'pending' });
      await t.api().put(`/api/admin/versions/${draft.id}`).set(bearer(admin)).send({ state: 'yanked' }).expect(200);
    });

    it('refuses a rollout that is not a share of servers, and changes nothing', async () => {
      const version = await createVersion(t, '4.0.9');
      for (const body of [
        { rollout_percent: 101 },
        { rollout_percent: -1 },
        { rollout_percent: 12.5 },
        { rollout_percent: '50' },
        { rollout_paused: 'yes' },
        {},
      ]) {
        const refused = await setRollout(version.id, body).expect(400);
        expect(Object.keys(refused.body.errors)).toEqual([Object.keys(body)[0] ?? 'rollout_percent']);
      }
      expect((await rollout(version.id).expect(200)).body.data).toMatchObject({ rollout_percent: 100, rollout_paused: false });
      await setRollout(987654, { rollout_percent: 10 }).expect(404);
      await rollout(987654).expect(404);
      const client = (await t.signUpClient()).token;
      await t.api().put(`/api/admin/versions/${version.id}/rollout`).set(bearer(client)).send({ rollout_percent: 10 }).expect(403);
    });
  });
});
