import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { RateLimits } from '../src/common/rate-limit';
import { startTestApp, TestApp } from './support/test-app';
import { twoInstances } from './support/two-instances';

/** Redis runs on every machine of this kind (ENVIRONMENT.md); .ci/run starts one where none runs. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** A port nothing listens on, for a Redis that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const limits = { THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '5', THROTTLE_LOGIN_FAILURES_PER_IP: '100000' };

/** Two instances as behind a load balancer, with the login limits low; with `redis`, sharing their counters through it. */
const twoLimitedInstances = (redis: Record<string, string>) => twoInstances({ ...limits, ...redis });

/** Six wrong passwords for one account from one address, alternating between the instances: the statuses. */
async function sixWrongPasswords(a: TestApp, b: TestApp): Promise<number[]> {
  const { email } = await a.signUpClient();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await [a, b][i % 2]
      .api()
      .post('/api/login')
      .send({ email, password: `wrong-password-${i}` });
    statuses.push(response.status);
  }
  return statuses;
}

describe(`rate limits across instances (${process.env.TEST_DB})`, () => {
  const started: TestApp[] = [];
  afterAll(async () => {
    for (const t of started.reverse()) await t.close();
  });

  it('limits one account as one when the instances share Redis (REDIS_URL)', async () => {
    const [a, b] = await twoLimitedInstances({ REDIS_URL, REDIS_KEY_PREFIX: `portal-test-${randomBytes(6).toString('hex')}` });
    started.push(a, b);
    expect(a.app.get(RateLimits).shared).toBe(true);
    expect(await sixWrongPasswords(a, b)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('counts per instance without it (the case REDIS_URL is for)', async () => {
    const [a, b] = await twoLimitedInstances({});
    started.push(a, b);
    expect(a.app.get(RateLimits).shared).toBe(false);
    expect(await sixWrongPasswords(a, b)).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it('keeps limiting in memory, never a 5xx, while Redis does not answer', async () => {
    const t = await startTestApp({ ...limits, REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0` });
    started.push(t);
    const { email } = await t.signUpClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await t
            .api()
            .post('/api/login')
            .send({ email, password: `wrong-${i}` })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
