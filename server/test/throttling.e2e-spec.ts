import { ADMIN, startTestApp, TestApp } from './support/test-app';

describe(`throttling (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await startTestApp({
        THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '3',
        THROTTLE_LOGIN_FAILURES_PER_IP: '8',
        THROTTLE_REGISTRATIONS_PER_IP: '4',
        THROTTLE_WINDOW_SECONDS: '600',
      })),
  );
  afterAll(() => t.close());

  it('answers 429 with Retry-After after repeated failed logins for one account, even with the right password', async () => {
    const client = await t.signUpClient();
    for (let i = 0; i < 3; i++) await t.api().post('/api/login').send({ email: client.email, password: 'wrong' }).expect(401);
    const blocked = await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(500);
    expect(blocked.body.message).toBe('Too many failed login attempts. Please try again in 10 minutes.');
  });

  it('does not block other accounts until the IP itself has too many failures', async () => {
    await t.api().post('/api/admin/login').send(ADMIN).expect(200);
    for (let i = 0; i < 5; i++)
      await t
        .api()
        .post('/api/admin/login')
        .send({ email: `probe${i}@portal.test`, password: 'x' })
        .expect(401);
    // 3 + 5 failures from this IP reach its limit of 8: now even the admin's right password is refused.
    const blocked = await t.api().post('/api/admin/login').send(ADMIN).expect(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('limits registrations per IP', async () => {
    const attempt = (i: number) =>
      t
        .api()
        .post('/api/register')
        .send({
          first_name: 'R',
          last_name: 'R',
          email: `reg${i}@portal.test`,
          password: 'password-1',
          password_confirmation: 'password-1',
        });
    // signUpClient above used one of the four.
    for (let i = 0; i < 3; i++) await attempt(i).expect(201);
    const blocked = await attempt(99).expect(429);
    expect(blocked.body.message).toMatch(/^Too many registration attempts/);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});
