import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { gzipSync } from 'node:zlib';
import { DeviceEntity } from '../src/modules/devices/device.entity';
import { DevicesRepository } from '../src/modules/devices/devices.repository';
import { DeviceSeatsService } from '../src/modules/devices/device-seats.service';
import { DeviceSyncService } from '../src/modules/devices/device-sync.service';
import { DrainState } from '../src/modules/health/drain-state.service';
import { LicenseEntity } from '../src/modules/licenses/license.entity';
import { AccessLogService } from '../src/modules/access-log/access-log.service';
import { accessRows } from './support/access-rows';
import { RemoteLogEntity } from '../src/modules/logs/remote-log.entity';
import { RemoteLogsService } from '../src/modules/logs/remote-logs.service';
import { callLicenseServer, ensureVersion, issueLicense, nonce, serverUid, setDate, verifySignedResponse } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

describe(`activation API and devices (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let alice: { token: string; id: number; email: string };
  let bob: { token: string; id: number; email: string };
  let publicKey: string;

  const license = (id: number) => t.dataSource.getRepository(LicenseEntity).findOneByOrFail({ id });
  const devicesOf = (licenseId: number) =>
    t.dataSource.getRepository(DeviceEntity).find({ where: { license_id: licenseId }, order: { id: 'ASC' } });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    alice = await t.signUpClient();
    bob = await t.signUpClient();
    await ensureVersion(t);
    publicKey = (await t.api().get('/api/license-server/public-key').expect(200)).body.data.public_key_pem;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('gives exactly max_activations seats to 20 simultaneous activations', async () => {
    const issued = await issueLicense(t, { max_activations: 5, user_email: alice.email });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: `concurrent-server-${i}` }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const codes = responses.map((r) => r.body.data.code);
    expect(codes.filter((c) => c === 'VALID')).toHaveLength(5);
    expect(codes.filter((c) => c === 'TOO_MANY_DEVICES')).toHaveLength(15);
    expect((await devicesOf(issued.id)).filter((d) => d.deactivated_at === null)).toHaveLength(5);
    expect((await license(issued.id)).current_activations).toBe(5);
  });

  it("accepts openapi.yaml's example bodies as they are, and activates with them once the key is real", async () => {
    const schemas = parse(readFileSync(resolve(__dirname, '../../openapi.yaml'), 'utf8')).components.schemas;
    const example = (name: string) =>
      Object.fromEntries(
        Object.entries(schemas[name].properties as Record<string, { example?: unknown }>).map(([field, { example }]) => [field, example]),
      );
    const activation = example('ActivationRequestDto');
    expect(Object.values(activation).every((value) => typeof value === 'string' && value !== 'string')).toBe(true);
    const asIs = await t.api().post('/api/license-server/activate').send(activation);
    expect(asIs.status).not.toBe(400);
    const issued = await issueLicense(t, { max_activations: 1 });
    const activated = await t.api().post('/api/license-server/activate').send({ ...activation, license_key: issued.license_key }).expect(200);
    expect(activated.body.data.code).toBe('VALID');
    const deactivation = { ...example('DeactivationRequestDto'), license_key: issued.license_key };
    expect((await t.api().post('/api/license-server/deactivate').send(deactivation).expect(200)).body.data.code).toBeDefined();
  });

  it('takes no new seat when the same server activates again, even many times at once', async () => {
    const issued = await issueLicense(t, { max_activations: 2 });
    const uid = serverUid();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid })),
    );
    expect(responses.map((r) => r.body.data.code)).toEqual(Array(10).fill('VALID'));
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid, hostname: 'renamed.example.net' }).expect(
      200,
    );
    const devices = await devicesOf(issued.id);
    expect(devices).toHaveLength(1);
    expect(devices[0].hostname).toBe('renamed.example.net');
    expect((await license(issued.id)).current_activations).toBe(1);
  });

  it('signs every answer over its canonical JSON and echoes the nonce, license key and server', async () => {
    const issued = await issueLicense(t, { max_activations: 1 });
    const uid = serverUid();
    const sent = nonce();
    const response = await callLicenseServer(t, 'activate', {
      license_key: issued.license_key.toLowerCase(),
      server_uid: uid,
      nonce: sent,
    }).expect(200);
    const answer = response.body.data;
    expect(response.body.success).toBe(true);
    expect(answer).toMatchObject({
      action: 'activate',
      valid: true,
      code: 'VALID',
      nonce: sent,
      license_key: issued.license_key,
      server_uid: uid,
    });
    expect(answer.license).toMatchObject({ license_key: issued.license_key, status: 'active', max_activations: 1, current_activations: 1 });
    expect(answer.device).toMatchObject({ server_uid: uid, status: 'active' });
    expect(Math.abs(Date.parse(answer.issued_at) - Date.now())).toBeLessThan(60_000);
    expect(answer.key_id).toBe((await t.api().get('/api/license-server/public-key')).body.data.key_id);
    expect(verifySignedResponse(answer, publicKey)).toBe(true);

    // The same answer cannot pass for one to another request, nor with any member changed.
    expect(verifySignedResponse({ ...answer, nonce: nonce() }, publicKey)).toBe(false);
    expect(verifySignedResponse({ ...answer, server_uid: serverUid() }, publicKey)).toBe(false);
    expect(verifySignedResponse({ ...answer, code: 'REVOKED' }, publicKey)).toBe(false);
    expect(verifySignedResponse({ ...answer, license: { ...answer.license, max_activations: 100 } }, publicKey)).toBe(false);

    const refused = (await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid() })).body;
    expect(refused).toMatchObject({ success: false, data: { valid: false, code: 'TOO_MANY_DEVICES' } });
    expect(verifySignedResponse(refused.data, publicKey)).toBe(true);
    const unknown = (await callLicenseServer(t, 'validate', { license_key: 'SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', server_uid: uid })).body
      .data;
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', license: null, device: null });
    expect(verifySignedResponse(unknown, publicKey)).toBe(true);
  });

  it('answers the same before the router (the exact path) as through it (another spelling): headers, signed body, access-log row', async () => {
    const issued = await issueLicense(t, { max_activations: 2 });
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid }).expect(200);
    const body = () => ({ license_key: issued.license_key, server_uid: uid, nonce: nonce() });
    const agent = (name: string) => `${name}-${nonce()}`;
    const agents = { fast: agent('fast'), routed: agent('routed'), form: agent('form') };
    const fast = await t.api().post('/api/license-server/validate').set('User-Agent', agents.fast).send(body()).expect(200);
    // A query string is not the exact path: Nest's router and the controller answer it.
    const routed = await t.api().post('/api/license-server/validate?via=router').set('User-Agent', agents.routed).send(body()).expect(200);
    // Nor is a form body: the body parsers and the controller answer it too.
    const form = await t.api().post('/api/license-server/validate').set('User-Agent', agents.form).type('form').send(body()).expect(200);
    // Every header the same (the date and the request's own id aside), whichever path answered.
    const headersOf = ({ headers }: { headers: Record<string, string> }) => ({ ...headers, date: undefined, 'x-request-id': undefined });
    expect(headersOf(fast)).toEqual(headersOf(routed));
    expect(headersOf(fast)).toEqual(headersOf(form));
    for (const response of [fast, routed, form]) {
      expect(response.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      expect(response.body).toMatchObject({ success: true, data: { action: 'validate', code: 'VALID', server_uid: uid } });
      expect(Object.keys(response.body)).toEqual(['success', 'data']);
      expect(Object.keys(response.body.data).at(-1)).toBe('signature');
      expect(verifySignedResponse(response.body.data, publicKey)).toBe(true);
    }
    // Refusals leave through the exception filter either way, with the same headers.
    const refusals = [];
    for (const path of ['/api/license-server/deactivate', '/api/license-server/deactivate?via=router']) {
      const refused = await t
        .api()
        .post(path)
        .send({ ...body(), hostname: 'not for deactivate' })
        .expect(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        message: 'property hostname should not exist',
        errors: { hostname: ['property hostname should not exist'] },
      });
      refusals.push(headersOf(refused));
    }
    expect(refusals[0]).toEqual(refusals[1]);
    for (const path of ['/api/license-server/validate', '/api/license-server/validate?via=router']) {
      const malformed = await t.api().post(path).set('Content-Type', 'application/json').send('{"license_key":').expect(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, message: 'Malformed JSON in request body' });
    }
    // The same access-log row, but for the path as sent and the time it took.
    await t.app.get(AccessLogService).flush();
    const rowOf = async (userAgent: string) => {
      const rows = (await accessRows(t.dataSource)).filter((row) => row.user_agent === userAgent);
      expect(rows).toHaveLength(1);
      const { method, route, path, status, bytes_out, user_id, user_email, ip_address } = rows[0];
      return { method, route, path, status, bytes_out, user_id, user_email, ip_address };
    };
    const fastRow = await rowOf(agents.fast);
    expect(fastRow).toMatchObject({
      method: 'POST',
      route: '/api/license-server/validate',
      path: '/api/license-server/validate',
      status: 200,
    });
    expect(fastRow.bytes_out).toBeGreaterThan(Number(fast.headers['content-length']));
    expect(fastRow.ip_address).toMatch(/127\.0\.0\.1/);
    expect(fastRow).toEqual(await rowOf(agents.form));
    expect({ ...fastRow, path: undefined }).toEqual({ ...(await rowOf(agents.routed)), path: undefined });
  });

  it('asks the client to reconnect elsewhere while draining, on the exact path as through the router', async () => {
    const draining = await startTestApp();
    try {
      const issued = await issueLicense(draining, { max_activations: 2 });
      const uid = serverUid();
      await callLicenseServer(draining, 'activate', { license_key: issued.license_key, server_uid: uid }).expect(200);
      // A client that would keep the connection.
      const call = (path: string) =>
        draining
          .api()
          .post(path)
          .set('Connection', 'keep-alive')
          .send({ license_key: issued.license_key, server_uid: uid, nonce: nonce() });
      expect((await call('/api/license-server/validate').expect(200)).headers.connection).toBe('keep-alive');
      draining.app.get(DrainState).start();
      for (const path of ['/api/license-server/validate', '/api/license-server/validate?via=router']) {
        const answer = await call(path).expect(200);
        expect(answer.headers.connection).toBe('close');
        expect(answer.body.data.code).toBe('VALID');
      }
    } finally {
      await draining.close();
    }
  });

  describe('reads an odd body as the app does everywhere else: the exact path (its own reader) answers as the routed one', () => {
    const valid = () => ({ license_key: 'SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', server_uid: serverUid(), nonce: nonce() });
    const nested = (depth: number): unknown => (depth ? { a: nested(depth - 1) } : 1);
    it.each<[string, () => { body: Buffer; headers?: Record<string, string> }]>([
      ['a JSON string', () => ({ body: Buffer.from('"SH-NOPE0"') })],
      ['a JSON number', () => ({ body: Buffer.from('42') })],
      ['an array', () => ({ body: Buffer.from('[1, 2]') })],
      ['whitespace before the object', () => ({ body: Buffer.from(`\r\n\t ${JSON.stringify(valid())}`) })],
      [
        'bytes that are not UTF-8',
        () => ({ body: Buffer.concat([Buffer.from('{"license_key": "SH-'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]) }),
      ],
      ['40 levels deep', () => ({ body: Buffer.from(JSON.stringify({ ...valid(), hostname: nested(40) })) })],
      [
        'a charset other than UTF-8',
        () => ({ body: Buffer.from(JSON.stringify(valid())), headers: { 'Content-Type': 'application/json; charset=latin1' } }),
      ],
      [
        'UTF-8 named in quotes and capitals',
        () => ({ body: Buffer.from(JSON.stringify(valid())), headers: { 'Content-Type': 'application/json; charset="UTF-8"' } }),
      ],
      ['gzip', () => ({ body: gzipSync(JSON.stringify(valid())), headers: { 'Content-Encoding': 'gzip' } })],
      ['a body over 8 kB', () => ({ body: Buffer.from(JSON.stringify({ ...valid(), hostname: 'h'.repeat(9000) })) })],
    ])('%s', async (_case, make) => {
      const answers = [];
      for (const path of ['/api/license-server/validate', '/api/license-server/validate?via=router']) {
        const { body, headers } = make();
        // The bytes as they are: supertest would send a Buffer as JSON of its bytes (it writes whatever the
        // serializer returns, though its type says a string).
        const asIs = (raw: Buffer) => raw as unknown as string;
        const call = t
          .api()
          .post(path)
          .set({ 'Content-Type': 'application/json', ...headers })
          .serialize(asIs);
        const { status, body: answer } = await call.send(body);
        answers.push({ status, answer: status === 200 ? { success: answer.success, code: answer.data.code } : answer });
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0].status).toBeLessThan(500);
    });
  });

  it('logs a client that drops the connection halfway through its body as 499, and goes on serving', async () => {
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const marker = `left-${nonce()}`;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        // 200 bytes announced, a few sent, then the connection dropped.
        socket.write(
          `POST /api/license-server/validate HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ${marker}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"license_key":',
          () => socket.destroy(),
        );
      });
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
    const logged = async () => {
      // A turn of the event loop first: on SQLite a query settles at once, and the server must see the close.
      await new Promise(setImmediate);
      await t.app.get(AccessLogService).flush();
      return (await accessRows(t.dataSource)).filter((row) => row.user_agent === marker);
    };
    let rows = await logged();
    while (!rows.length) rows = await logged();
    expect(rows.map((row: { path: string; status: number }) => [row.path, Number(row.status)])).toEqual([
      ['/api/license-server/validate', 499],
    ]);
    const issued = await issueLicense(t);
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid }).expect(200);
    const after = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uid }).expect(200);
    expect(after.body.data.code).toBe('VALID');
  });

  it('refuses revoked, expired and pending licenses with their codes', async () => {
    const revoked = await issueLicense(t, { max_activations: 3 });
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: revoked.license_key, server_uid: uid }).expect(200);
    await t.api().post(`/api/admin/licenses/${revoked.id}/revoke`).set(bearer(admin)).expect(200);
    expect((await callLicenseServer(t, 'validate', { license_key: revoked.license_key, server_uid: uid })).body.data).toMatchObject({
      valid: false,
      code: 'REVOKED',
    });
    expect((await callLicenseServer(t, 'activate', { license_key: revoked.license_key, server_uid: serverUid() })).body.data.code).toBe(
      'REVOKED',
    );

    const expired = await issueLicense(t, { max_activations: 3 });
    const expiredUid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: expired.license_key, server_uid: expiredUid }).expect(200);
    await setDate(t, 'licenses', expired.id, 'expires_at', new Date(Date.now() - 1000));
    const heartbeat = (await callLicenseServer(t, 'validate', { license_key: expired.license_key, server_uid: expiredUid })).body.data;
    expect(heartbeat).toMatchObject({ valid: false, code: 'EXPIRED', license: { status: 'expired' } });
    expect(verifySignedResponse(heartbeat, publicKey)).toBe(true);
    expect((await callLicenseServer(t, 'activate', { license_key: expired.license_key, server_uid: serverUid() })).body.data.code).toBe(
      'EXPIRED',
    );
    expect((await devicesOf(expired.id))[0].status).toBe('failed');

    const pending = await t
      .api()
      .post('/api/admin/licenses')
      .set(bearer(admin))
      .send({
        product_name: 'StreamHub Basic',
        user_email: 'p@portal.test',
        expires_at: new Date(Date.now() + 86400000).toISOString(),
        status: 'pending',
      })
      .expect(201);
    expect(
      (await callLicenseServer(t, 'activate', { license_key: pending.body.data.license_key, server_uid: serverUid() })).body.data.code,
    ).toBe('PENDING');
  });

  it('answers NOT_ACTIVATED to a heartbeat from a server without a seat', async () => {
    const issued = await issueLicense(t);
    expect((await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: serverUid() })).body.data.code).toBe(
      'NOT_ACTIVATED',
    );
  });

  it('moves last_activity_at with every heartbeat', async () => {
    const issued = await issueLicense(t);
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid }).expect(200);
    const [device] = await devicesOf(issued.id);
    const anHourAgo = new Date(Date.now() - 3600_000);
    await setDate(t, 'devices', device.id, 'last_activity_at', anHourAgo);
    const answer = (await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uid, version: '2.2.0' })).body
      .data;
    expect(answer).toMatchObject({ valid: true, code: 'VALID' });
    const [after] = await devicesOf(issued.id);
    expect(after.last_activity_at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(after.version).toBe('2.2.0');
  });

  it('keeps last activity to the second: a repeated heartbeat within it writes nothing, a changed detail always does', async () => {
    const issued = await issueLicense(t);
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid, version: '2.1.0' }).expect(200);
    const [device] = await devicesOf(issued.id);
    const justNow = new Date(Date.now() - 200);
    await setDate(t, 'devices', device.id, 'last_activity_at', justNow);

    const again = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uid, version: '2.1.0' });
    expect(again.body.data).toMatchObject({ code: 'VALID', device: { last_activity_at: justNow.toISOString() } });
    expect((await devicesOf(issued.id))[0].last_activity_at).toEqual(justNow);

    const upgraded = await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uid, version: '2.2.0' });
    expect(upgraded.body.data.code).toBe('VALID');
    const [after] = await devicesOf(issued.id);
    expect(after.version).toBe('2.2.0');
    expect(after.last_activity_at!.getTime()).toBeGreaterThan(justNow.getTime());
  });

  it('stores a heartbeat answered before its server gave the seat back without making the released device active again', async () => {
    const issued = await issueLicense(t);
    const uid = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid }).expect(200);
    const [device] = await devicesOf(issued.id);
    expect((await callLicenseServer(t, 'deactivate', { license_key: issued.license_key, server_uid: uid })).body.data.code).toBe(
      'DEACTIVATED',
    );
    const [released] = await devicesOf(issued.id);
    // The heartbeat's write lands after the release (its answer was computed while the seat was held).
    await t.app.get(DevicesRepository).recordHeartbeat({ id: device.id, at: new Date(Date.now() + 5000), details: null });
    const [after] = await devicesOf(issued.id);
    expect(after).toMatchObject({
      status: 'inactive',
      deactivated_at: released.deactivated_at,
      last_activity_at: released.last_activity_at,
    });
    expect((await license(issued.id)).current_activations).toBe(0);
  });

  it('answers many concurrent heartbeats of different licenses and servers each with its own license and device', async () => {
    const licenses = await Promise.all([1, 2, 3].map(() => issueLicense(t, { max_activations: 3 })));
    const seats = licenses.flatMap((issued) => [serverUid(), serverUid()].map((uid) => ({ key: issued.license_key, uid })));
    for (const { key, uid } of seats) await callLicenseServer(t, 'activate', { license_key: key, server_uid: uid }).expect(200);
    const calls = [
      ...seats.flatMap((seat) => [seat, seat, seat]).map((seat) => ({ ...seat, code: 'VALID' })),
      ...licenses.map((issued) => ({ key: issued.license_key, uid: serverUid(), code: 'NOT_ACTIVATED' })),
      { key: 'SH-0000-0000-0000-0000-0000', uid: seats[0].uid, code: 'NOT_FOUND' },
    ];
    const answers = await Promise.all(
      calls.map(({ key, uid }) => callLicenseServer(t, 'validate', { license_key: key, server_uid: uid }).expect(200)),
    );
    answers.forEach((response, i) => {
      const { key, uid, code } = calls[i];
      expect(response.body.data).toMatchObject({ code, license_key: key, server_uid: uid });
      if (code !== 'NOT_FOUND') expect(response.body.data.license.license_key).toBe(key);
      if (code === 'VALID') expect(response.body.data.device.server_uid).toBe(uid);
      else expect(response.body.data.device).toBeNull();
    });
  });

  it('finds the same license and device for lookups made together (one batched statement on MySQL) as for each alone', async () => {
    const devices = t.app.get(DeviceSeatsService);
    const licenses = await Promise.all([1, 2].map(() => issueLicense(t, { max_activations: 3 })));
    const uids = [serverUid(), serverUid(), serverUid()];
    await callLicenseServer(t, 'activate', { license_key: licenses[0].license_key, server_uid: uids[0] }).expect(200);
    await callLicenseServer(t, 'activate', { license_key: licenses[0].license_key, server_uid: uids[1] }).expect(200);
    await callLicenseServer(t, 'activate', { license_key: licenses[1].license_key, server_uid: uids[1] }).expect(200);
    const pairs: Array<[string, string]> = [
      ...licenses.flatMap((issued) => uids.map((uid): [string, string] => [issued.license_key, uid])),
      [licenses[0].license_key, uids[0].toUpperCase()],
      ['SH-NOT-A-KEY-OF-OURS', uids[0]],
      [licenses[1].license_key, uids[1]],
      // Equal to a stored key under MariaDB's accent-insensitive collation, but not the key: no match on either engine.
      [`${licenses[0].license_key.slice(0, 4)}\u0301${licenses[0].license_key.slice(4)}`, uids[0]],
    ];
    const summary = ({ license, device }: Awaited<ReturnType<DeviceSeatsService['lookup']>>) => ({
      license: license && { id: license.id, key: license.license_key, seats: license.current_activations },
      device: device && { id: device.id, license_id: device.license_id, status: device.status },
    });
    const alone = [];
    for (const [key, uid] of pairs) alone.push(summary(await devices.lookup(key, uid)));
    const together = (await Promise.all(pairs.map(([key, uid]) => devices.lookup(key, uid)))).map(summary);
    expect(together).toEqual(alone);
    expect(alone.slice(0, 6).map((found) => Boolean(found.device))).toEqual([true, true, false, false, true, false]);
    expect(alone[7]).toEqual({ license: null, device: null });
    expect(alone[9]).toEqual({ license: null, device: null });
  });

  it('marks devices that stopped reporting inactive (scheduled job and on read); a heartbeat brings them back', async () => {
    const issued = await issueLicense(t, { max_activations: 2, user_email: alice.email });
    const silent = serverUid();
    const onRead = serverUid();
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: silent }).expect(200);
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: onRead }).expect(200);
    const [first, second] = await devicesOf(issued.id);
    const longAgo = new Date(Date.now() - (t.config.licensing.deviceInactiveAfterSeconds + 60) * 1000);
    await setDate(t, 'devices', first.id, 'last_activity_at', longAgo);
    expect(await t.app.get(DeviceSyncService).markSilentDevicesInactive()).toBeGreaterThanOrEqual(1);
    expect((await devicesOf(issued.id)).map((d) => d.status)).toEqual(['inactive', 'active']);

    await setDate(t, 'devices', second.id, 'last_activity_at', longAgo);
    const mine = (await t.api().get('/api/devices').set(bearer(alice.token)).expect(200)).body.data;
    expect(mine.find((d: { id: number }) => d.id === second.id)).toMatchObject({ status: 'inactive', is_active: false });
    // The admin list shows and filters it as inactive too, and finds it by its server id, its license's key (in lower
    // case, without hyphens) and its owner's e-mail; nothing was written.
    const adminIds = async (query: Record<string, string>) =>
      (await t.api().get('/api/admin/devices').query(query).set(bearer(admin)).expect(200)).body.data.map((d: { id: number }) => d.id);
    expect(await adminIds({ search: onRead, status: 'inactive' })).toEqual([second.id]);
    expect(await adminIds({ search: onRead, status: 'active' })).toEqual([]);
    expect(await adminIds({ search: issued.license_key.toLowerCase().replace(/-/g, '') })).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
    expect(await adminIds({ search: alice.email.slice(0, 5) })).toEqual(expect.arrayContaining([first.id, second.id]));
    expect((await devicesOf(issued.id)).find((d) => d.id === second.id)?.status).toBe('active');

    // Silence keeps the seat: the server resumes with a heartbeat.
    expect((await license(issued.id)).current_activations).toBe(2);
    expect((await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: silent })).body.data.code).toBe('VALID');
    expect((await devicesOf(issued.id))[0].status).toBe('active');
  });

  it('frees a seat on deactivation, so a sixth server can activate', async () => {
    const issued = await issueLicense(t, { max_activations: 5, user_email: alice.email });
    const uids = Array.from({ length: 5 }, serverUid);
    for (const uid of uids)
      expect((await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uid })).body.data.code).toBe('VALID');
    const sixth = serverUid();
    expect((await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: sixth })).body.data.code).toBe(
      'TOO_MANY_DEVICES',
    );

    const gone = await callLicenseServer(t, 'deactivate', { license_key: issued.license_key, server_uid: uids[0] }).expect(200);
    expect(gone.body).toMatchObject({ success: true, data: { code: 'DEACTIVATED', license: { current_activations: 4 } } });
    expect(verifySignedResponse(gone.body.data, publicKey)).toBe(true);
    expect((await callLicenseServer(t, 'deactivate', { license_key: issued.license_key, server_uid: uids[0] })).body.data.code).toBe(
      'NOT_ACTIVATED',
    );
    expect((await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uids[0] })).body.data.code).toBe(
      'NOT_ACTIVATED',
    );
    expect((await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: sixth })).body.data.code).toBe('VALID');
    expect((await license(issued.id)).current_activations).toBe(5);

    // The owner frees a seat from My Devices; an admin frees one by {license_key, server_uid}.
    const mine = (await t.api().get('/api/devices').set(bearer(alice.token)).expect(200)).body.data;
    const own = mine.find((d: { server_uid: string }) => d.server_uid === uids[1]);
    const deactivated = await t.api().post(`/api/devices/${own.id}/deactivate`).set(bearer(alice.token)).expect(200);
    expect(deactivated.body.data).toMatchObject({ status: 'inactive', is_active: false, license_key: issued.license_key });
    expect((await license(issued.id)).current_activations).toBe(4);
    await t
      .api()
      .post('/api/admin/devices/deactivate')
      .set(bearer(admin))
      .send({ license_key: issued.license_key, server_uid: uids[2] })
      .expect(200);
    expect((await license(issued.id)).current_activations).toBe(3);
    await t
      .api()
      .post('/api/admin/devices/deactivate')
      .set(bearer(admin))
      .send({ license_key: issued.license_key, server_uid: 'no-such-server' })
      .expect(404);

    // The old server comes back: it needs a free seat again.
    expect((await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: uids[0] })).body.data.code).toBe('VALID');
    expect((await license(issued.id)).current_activations).toBe(4);
  });

  it('shows the owner their devices with every field, and never another client’s', async () => {
    const mine = (await t.api().get('/api/devices').set(bearer(alice.token)).expect(200)).body;
    expect(mine.meta.total).toBeGreaterThan(5);
    expect(mine.data[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        device_name: 'Edge server',
        license_key: expect.stringMatching(/^SH-/),
        status: expect.stringMatching(/^(active|inactive|failed)$/),
        activated_at: expect.any(String),
        last_activity_at: expect.any(String),
        server_uid: expect.any(String),
      }),
    );
    expect((await t.api().get('/api/devices').set(bearer(bob.token)).expect(200)).body.data).toEqual([]);

    const all = await t.dataSource.getRepository(DeviceEntity).find();
    for (const device of all) {
      await t.api().post(`/api/devices/${device.id}/deactivate`).set(bearer(bob.token)).expect(404);
    }
    expect((await t.dataSource.getRepository(DeviceEntity).find()).map((d) => d.deactivated_at)).toEqual(all.map((d) => d.deactivated_at));
  });

  it('gives admins the device list, stats and the devices of one license', async () => {
    const list = (await t.api().get('/api/admin/devices').query({ search: 'concurrent-server-' }).set(bearer(admin)).expect(200)).body;
    expect(list.meta.total).toBe(5);
    expect(list.data[0]).toMatchObject({ user_email: alice.email, hostname: 'stream-01.example.net' });
    const all = (await t.api().get('/api/admin/devices').set(bearer(admin)).expect(200)).body;
    expect(all.meta).toMatchObject({ page: 1, limit: 25 });
    const stats = (await t.api().get('/api/admin/devices/stats').set(bearer(admin)).expect(200)).body.data;
    expect(stats.total).toBe(await t.dataSource.getRepository(DeviceEntity).count());
    expect(stats.active + stats.inactive + stats.failed).toBe(stats.total);
    expect(stats.holding_seats + stats.deactivated).toBe(stats.total);
    await t.api().get('/api/admin/devices/license/SH-UNKNOWN-KEY00').set(bearer(admin)).expect(404);
  });

  it('records every call for a known key as a remote log entry, valid or not, with host, product, version, server, key, code and IP', async () => {
    const logs = t.dataSource.getRepository(RemoteLogEntity);
    // Entries are written in batches: a read of the log (here, the test's) stores what is held first.
    const stored = () => t.app.get(RemoteLogsService).flush();
    const issued = await issueLicense(t, { max_activations: 1 });
    const uid = serverUid();
    await stored();
    const before = await logs.count();
    await callLicenseServer(t, 'activate', {
      license_key: issued.license_key,
      server_uid: uid,
      hostname: 'edge-7.example.net',
      product: 'StreamHub',
      version: '2.3.1',
    });
    const heartbeats = await Promise.all(
      Array.from({ length: 25 }, () =>
        callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: uid, version: '2.3.1' }),
      ),
    );
    expect(heartbeats.every((r) => r.body.data.code === 'VALID')).toBe(true);
    await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid() });
    await callLicenseServer(t, 'validate', { license_key: 'SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0', server_uid: uid });
    await callLicenseServer(t, 'deactivate', { license_key: issued.license_key, server_uid: uid });
    // 28 calls for a known key; the unknown key is counted, not logged (see the rate-limit tests).
    await stored();
    expect(await logs.count()).toBe(before + 28);

    const entries = await logs.find({ where: { license_key: issued.license_key, server_uid: uid }, order: { id: 'ASC' } });
    expect(entries).toHaveLength(27);
    expect(entries[0]).toMatchObject({
      action: 'activate',
      valid: true,
      code: 'VALID',
      level: 'info',
      hostname: 'edge-7.example.net',
      product: 'StreamHub',
      version: '2.3.1',
    });
    expect(entries[0].ip_address).toMatch(/127\.0\.0\.1/);
    expect(Math.abs(entries[0].created_at.getTime() - Date.now())).toBeLessThan(60_000);
    expect(entries.filter((e) => e.action === 'validate' && e.valid && e.code === 'VALID')).toHaveLength(25);
    expect(entries.at(-1)).toMatchObject({ action: 'deactivate', code: 'DEACTIVATED', valid: false });
    expect(await logs.findOneBy({ license_key: issued.license_key, code: 'TOO_MANY_DEVICES' })).toMatchObject({
      valid: false,
      level: 'warning',
    });
    expect(await logs.findOneBy({ license_key: 'SH-NOPE0-NOPE0-NOPE0-NOPE0-NOPE0' })).toBeNull();
  });

  it.each([
    ['no nonce', { nonce: undefined }],
    ['a short nonce', { nonce: 'abc' }],
    ['a nonce with spaces', { nonce: 'a nonce with spaces in it' }],
    ['a short server_uid', { server_uid: 'x' }],
    ['no license key', { license_key: '' }],
    ['an unknown field', { admin: true }],
  ])('answers a malformed request (%s) with 400', async (_case, change) => {
    const body = { license_key: 'SH-AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', server_uid: serverUid(), nonce: nonce(), ...change };
    await t.api().post('/api/license-server/activate').send(body).expect(400);
  });
});
