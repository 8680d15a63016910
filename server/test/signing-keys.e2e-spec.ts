import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { keyIdOf } from '../src/modules/licenses/license-signing.service';
import { verifyLicenseFile } from '../src/modules/licenses/license-file';
import { AuditLogService } from '../src/modules/logs/audit-log.service';
import { eventually } from './support/distribution';
import { callLicenseServer, issueLicense, nonce, serverUid, verifySignedResponse } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';
import { twoInstances } from './support/two-instances';

interface ListedKey {
  kid: string;
  algorithm: string;
  public_key_pem: string;
  current: boolean;
  created_at: string;
}

const FIRST_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const FIRST_KID = keyIdOf(createPublicKey(createPrivateKey(FIRST_KEY)));

async function publicKeys(t: TestApp): Promise<ListedKey[]> {
  const response = await t.api().get('/api/license-server/public-keys').expect(200);
  return response.body.data.keys;
}

async function licenseFile(t: TestApp, id: number): Promise<string> {
  const response = await t
    .api()
    .get(`/api/licenses/${id}/file`)
    .set(bearer(await t.adminToken()))
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => done(null, text));
    })
    .expect(200);
  return response.body as string;
}

const pemOf = (keys: ListedKey[], kid: string) => keys.find((key) => key.kid === kid)?.public_key_pem;

describe(`signing keys: ids, rotation and removal (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ LICENSE_SIGNING_KEY: FIRST_KEY });
    admin = await t.adminToken();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('imports LICENSE_SIGNING_KEY as the first key, keeping its kid, and lists it publicly', async () => {
    const keys = await publicKeys(t);
    expect(keys).toEqual([
      {
        kid: FIRST_KID,
        algorithm: 'Ed25519',
        public_key_pem: expect.stringContaining('BEGIN PUBLIC KEY'),
        current: true,
        created_at: expect.any(String),
      },
    ]);
    const single = await t.api().get('/api/license-server/public-key').expect(200);
    expect(single.body.data).toEqual({ algorithm: 'Ed25519', key_id: FIRST_KID, public_key_pem: keys[0].public_key_pem });
  });

  it('keeps the private half encrypted at rest', async () => {
    const rows: Array<{ kid: string; private_key_sealed: string }> = await t.dataSource.query(
      'SELECT kid, private_key_sealed FROM signing_keys',
    );
    expect(rows.map((row) => row.kid)).toEqual([FIRST_KID]);
    expect(rows[0].private_key_sealed).toMatch(/^v1\./);
    expect(rows[0].private_key_sealed).not.toContain('PRIVATE KEY');
    expect(rows[0].private_key_sealed).not.toContain(FIRST_KEY.split('\n')[1]);
  });

  it('rotates: the new key signs license files and activation answers (fast path and router alike); the old key still verifies old files', async () => {
    const license = await issueLicense(t, { max_activations: 3 });
    const oldFile = await licenseFile(t, license.id);
    expect(verifyLicenseFile(oldFile, pemOf(await publicKeys(t), FIRST_KID)!)).toMatchObject({ valid: true, payload: { kid: FIRST_KID } });

    const rotated = await t.api().post('/api/admin/signing-keys/rotate').set(bearer(admin)).expect(201);
    const kid: string = rotated.body.data.kid;
    expect(rotated.body).toMatchObject({ success: true, data: { kid, algorithm: 'Ed25519', current: true, retired_at: null } });
    expect(kid).toMatch(/^[0-9a-f]{16}$/);
    expect(kid).not.toBe(FIRST_KID);

    const keys = await publicKeys(t);
    expect(keys.map((key) => [key.kid, key.current])).toEqual([
      [kid, true],
      [FIRST_KID, false],
    ]);
    expect((await t.api().get('/api/license-server/public-key').expect(200)).body.data.key_id).toBe(kid);

    // A file issued before the rotation still verifies with the listed old key; a new one carries the new kid.
    expect(verifyLicenseFile(oldFile, pemOf(keys, FIRST_KID)!)).toMatchObject({ valid: true });
    const newFile = await licenseFile(t, license.id);
    expect(verifyLicenseFile(newFile, pemOf(keys, kid)!)).toMatchObject({ valid: true, payload: { kid } });
    expect(verifyLicenseFile(newFile, pemOf(keys, FIRST_KID)!)).toMatchObject({ valid: false });

    // The exact path is served before Express; a query string goes through the router: both sign with the new key.
    const uid = serverUid();
    const fast = await callLicenseServer(t, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
    const routed = await t
      .api()
      .post('/api/license-server/validate?via=router')
      .send({ license_key: license.license_key, server_uid: uid, nonce: nonce() })
      .expect(200);
    for (const answer of [fast.body.data, routed.body.data]) {
      expect(answer).toMatchObject({ code: 'VALID', key_id: kid });
      expect(verifySignedResponse(answer, pemOf(keys, kid)!)).toBe(true);
    }
    expect(Object.keys(fast.body.data).sort()).toEqual(Object.keys(routed.body.data).sort());
  });

  it('records rotations and removals in the audit trail', async () => {
    await t.app.get(AuditLogService).flush();
    const rows: Array<{ action: string; message: string }> = await t.dataSource.query(
      "SELECT action, message FROM audit_logs WHERE action LIKE 'signing_key.%' ORDER BY id",
    );
    expect(rows).toEqual([{ action: 'signing_key.rotate', message: expect.stringMatching(/^Rotate signing key: [0-9a-f]{16}$/) }]);
  });

  it('refuses to remove the current key, removes an old one (gone from the list), then 404; a malformed kid is a 400', async () => {
    const [current, old] = await publicKeys(t);
    const refused = await t.api().delete(`/api/admin/signing-keys/${current.kid}`).set(bearer(admin)).expect(409);
    expect(refused.body.message).toMatch(/current signing key/);
    expect((await publicKeys(t)).map((key) => key.kid)).toEqual([current.kid, old.kid]);

    await t.api().delete(`/api/admin/signing-keys/${old.kid}`).set(bearer(admin)).expect(200);
    expect((await publicKeys(t)).map((key) => key.kid)).toEqual([current.kid]);
    const listed = await t.api().get('/api/admin/signing-keys').set(bearer(admin)).expect(200);
    expect(listed.body.data.map((key: ListedKey) => key.kid)).toEqual([current.kid]);
    await t.api().delete(`/api/admin/signing-keys/${old.kid}`).set(bearer(admin)).expect(404);
    await t.api().delete('/api/admin/signing-keys/0123456789abcdef').set(bearer(admin)).expect(404);
    const malformed = await t.api().delete('/api/admin/signing-keys/NOT-A-KID').set(bearer(admin)).expect(400);
    expect(malformed.body.errors).toHaveProperty('kid');

    await t.app.get(AuditLogService).flush();
    const rows: Array<{ action: string; message: string }> = await t.dataSource.query(
      "SELECT action, message FROM audit_logs WHERE action = 'signing_key.remove' ORDER BY id",
    );
    expect(rows.map((row) => row.message)).toEqual([
      `Remove signing key refused (409) for ${current.kid}: This is the current signing key: rotate first, then remove it.`,
      `Remove signing key: ${old.kid}`,
      `Remove signing key refused (404) for ${old.kid}: Signing key not found`,
      'Remove signing key refused (404) for 0123456789abcdef: Signing key not found',
      // A malformed kid never reaches the handler: the validation pipe refuses it, and the audit with it.
      expect.stringMatching(/^Remove signing key refused \(400\)/),
    ]);
  });

  it('lets only admins list, rotate and remove keys', async () => {
    const client = await t.signUpClient();
    await t.api().get('/api/admin/signing-keys').set(bearer(client.token)).expect(403);
    await t.api().post('/api/admin/signing-keys/rotate').set(bearer(client.token)).expect(403);
    await t.api().post('/api/admin/signing-keys/rotate').expect(401);
    expect(await publicKeys(t)).toHaveLength(1);
  });
});

describe(`signing keys on two instances (${process.env.TEST_DB})`, () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [a, b] = await twoInstances();
  });
  afterAll(async () => {
    for (const t of [a, b]) expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await b?.close();
    await a?.close();
  });

  it('agree on one first key, and the other instance signs with a rotated key soon after', async () => {
    const license = await issueLicense(a, { max_activations: 5 });
    const first = await callLicenseServer(a, 'activate', { license_key: license.license_key, server_uid: serverUid() }).expect(200);
    const onB = await callLicenseServer(b, 'activate', { license_key: license.license_key, server_uid: serverUid() }).expect(200);
    expect(onB.body.data.key_id).toBe(first.body.data.key_id);

    const rotated = await a
      .api()
      .post('/api/admin/signing-keys/rotate')
      .set(bearer(await a.adminToken()))
      .expect(201);
    const kid = rotated.body.data.kid;
    // This instance at once; the other when its cached keys expire (SIGNING_KEYS_TTL_MS).
    const onA = await callLicenseServer(a, 'validate', { license_key: license.license_key, server_uid: first.body.data.server_uid });
    expect(onA.body.data.key_id).toBe(kid);
    let answer: Record<string, unknown> = {};
    await eventually('instance B signs with the rotated key', async () => {
      answer = (await callLicenseServer(b, 'validate', { license_key: license.license_key, server_uid: onB.body.data.server_uid })).body
        .data;
      return answer.key_id === kid;
    });
    const keys = await publicKeys(b);
    expect(keys.map((key) => [key.kid, key.current])).toEqual([
      [kid, true],
      [first.body.data.key_id, false],
    ]);
    expect(verifySignedResponse(answer, pemOf(keys, kid)!)).toBe(true);
  });
});
