import { ActivationThrottle } from '../src/modules/license-server/activation-throttle';
import { RemoteLogEntity } from '../src/modules/logs/remote-log.entity';
import { RemoteLogsService } from '../src/modules/logs/remote-logs.service';
import { issueLicense, nonce, serverUid } from './support/licensing';
import { startTestApp, TestApp } from './support/test-app';

describe(`activation API rate limits (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await startTestApp({
        ACTIVATION_CALLS_PER_IP_PER_MINUTE: '12',
        ACTIVATION_CALLS_PER_KEY_PER_MINUTE: '5',
        ACTIVATION_UNKNOWN_KEYS_PER_IP: '3',
        // Requests name their client address in X-Forwarded-For, as a proxy on loopback would.
        TRUST_PROXY: 'loopback',
      })),
  );
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  const validate = (from: string, licenseKey: string, uid = serverUid()) =>
    t
      .api()
      .post('/api/license-server/validate')
      .set('X-Forwarded-For', from)
      .send({ license_key: licenseKey, server_uid: uid, nonce: nonce() });
  const unknownKey = (i: number) => `SH-GUESS-${String(i).padStart(5, '0')}-AAAAA-AAAAA-AAAAA`;
  /** The remote log's table, once what the service holds is stored (entries are written in batches). */
  const logs = async () => {
    await t.app.get(RemoteLogsService).flush();
    return t.dataSource.getRepository(RemoteLogEntity);
  };

  it('limits calls per license key, with Retry-After, while other keys go on', async () => {
    const busy = await issueLicense(t);
    const other = await issueLicense(t);
    for (let i = 0; i < 5; i++) await validate(`10.7.0.${i}`, busy.license_key).expect(200);
    const refused = await validate('10.7.0.9', busy.license_key).expect(429);
    expect(refused.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^Too many license requests/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    await validate('10.7.0.9', other.license_key).expect(200);
  });

  it('limits calls per address', async () => {
    const keys = await Promise.all(Array.from({ length: 3 }, () => issueLicense(t)));
    for (let i = 0; i < 12; i++) await validate('10.8.0.1', keys[i % 3].license_key).expect(200);
    await validate('10.8.0.1', keys[0].license_key).expect(429);
    await validate('10.8.0.2', keys[1].license_key).expect(200);
  });

  it('refuses an address that sent too many unknown keys, whatever key it sends next, and logs none of them one by one', async () => {
    const known = await issueLicense(t);
    const before = await (await logs()).count();
    for (let i = 0; i < 3; i++) {
      const answer = await validate('10.9.0.1', unknownKey(i)).expect(200);
      expect(answer.body.data.code).toBe('NOT_FOUND');
    }
    // A known key from the guessing address is refused too: the answer must not tell which keys exist.
    await validate('10.9.0.1', known.license_key).expect(429);
    await validate('10.9.0.1', unknownKey(99)).expect(429);
    await validate('10.9.0.2', known.license_key).expect(200);
    // Only the known key's call from the other address left a row.
    expect(await (await logs()).count()).toBe(before + 1);
  });

  it('writes the counts of NOT_FOUND and refused calls as one summary entry each', async () => {
    const throttle = t.app.get(ActivationThrottle);
    throttle.flush();
    await (await logs()).delete({ action: 'summary' });
    for (let i = 0; i < 3; i++) await validate('10.10.0.1', unknownKey(i)).expect(200);
    await validate('10.10.0.2', unknownKey(7)).expect(200);
    await validate('10.10.0.1', unknownKey(8)).expect(429);
    throttle.flush();

    const summaries = await (await logs()).find({ where: { action: 'summary' }, order: { code: 'ASC' } });
    expect(summaries).toEqual([
      expect.objectContaining({
        code: 'NOT_FOUND',
        level: 'warning',
        valid: false,
        ip_address: '10.10.0.1',
        message: '4 calls with unknown license keys (from 2 addresses; most from 10.10.0.1: 3)',
      }),
      expect.objectContaining({
        code: 'RATE_LIMITED',
        ip_address: '10.10.0.1',
        message: '1 call refused by the rate limit (from 1 address; most from 10.10.0.1: 1)',
      }),
    ]);
  });
});
