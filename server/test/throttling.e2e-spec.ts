import { PasswordHasher } from '../src/modules/users/password-hasher';
import { ADMIN, startTestApp, TestApp } from './support/test-app';

describe(`sign-in and registration throttling (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await startTestApp({
        THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '3',
        THROTTLE_LOGIN_FAILURES_PER_IP: '8',
        THROTTLE_REGISTRATIONS_PER_IP: '5',
        THROTTLE_WINDOW_SECONDS: '600',
        // Requests name their client address in X-Forwarded-For, as a proxy on loopback would.
        TRUST_PROXY: 'loopback',
      })),
  );
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  const login = (from: string, email: string, password: string, door: 'login' | 'admin/login' = 'login') =>
    t.api().post(`/api/${door}`).set('X-Forwarded-For', from).send({ email, password });

  it('refuses an address that failed too often on one account, even with the right password, for the window', async () => {
    const client = await t.signUpClient();
    for (let i = 0; i < 3; i++) await login('10.1.0.1', client.email, 'wrong-password').expect(401);
    const blocked = await login('10.1.0.1', client.email, client.password).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(500);
    expect(blocked.body.message).toBe('Too many failed login attempts. Please try again in 10 minutes.');
  });

  it('lets the owner in from an address that has not failed, however often strangers failed on the account', async () => {
    const owner = await t.signUpClient();
    for (let i = 0; i < 3; i++) await login('10.2.0.1', owner.email, 'guess-' + i).expect(401);
    for (let i = 0; i < 3; i++) await login(`10.2.1.${i}`, owner.email, 'guess-more').expect(401);
    await login('10.2.0.1', owner.email, owner.password).expect(429);
    const own = await login('10.2.9.9', owner.email, owner.password).expect(200);
    expect(own.body.user.email).toBe(owner.email);
  });

  it('makes the addresses that failed on an account wait longer with each failure past the limit, instead of locking it', async () => {
    const owner = await t.signUpClient();
    for (let i = 0; i < 3; i++) await login(`10.3.0.${i}`, owner.email, 'guess').expect(401);
    // The account is at its limit: each further failure doubles the wait of the addresses that failed on it.
    await login('10.3.1.1', owner.email, 'guess').expect(401);
    const first = await login('10.3.1.1', owner.email, 'guess').expect(429);
    await login('10.3.1.2', owner.email, 'guess').expect(401);
    const second = await login('10.3.1.2', owner.email, 'guess').expect(429);
    expect(Number(first.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(Number(first.headers['retry-after']));
    expect(second.body.message).toBe('Too many failed login attempts. Please try again in 1 minute.');
    // A fresh address still gets its answer (no lock), and the right password gets in.
    await login('10.3.2.1', owner.email, 'guess').expect(401);
    await login('10.3.2.2', owner.email, owner.password).expect(200);
  });

  it('refuses an address that failed on too many accounts, the admin included', async () => {
    await login('10.4.0.1', ADMIN.email, ADMIN.password, 'admin/login').expect(200);
    for (let i = 0; i < 8; i++) await login('10.4.0.1', `probe${i}@portal.test`, 'x', 'admin/login').expect(401);
    const blocked = await login('10.4.0.1', ADMIN.email, ADMIN.password, 'admin/login').expect(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    await login('10.4.0.2', ADMIN.email, ADMIN.password, 'admin/login').expect(200);
  });

  it('answers every failed sign-in alike, with the same password hashing work for an unknown address', async () => {
    const client = await t.signUpClient();
    const hasher = t.app.get(PasswordHasher);
    const verify = jest.spyOn(hasher, 'verify');
    const verifyNothing = jest.spyOn(hasher, 'verifyNothing');
    try {
      const unknown = await login('10.5.0.1', 'nobody-here@portal.test', 'whatever-1').expect(401);
      expect(verifyNothing).toHaveBeenCalledTimes(1);
      const argon2Verifies = verify.mock.calls.length; // verifyNothing verifies against a dummy hash: one so far
      expect(argon2Verifies).toBe(1);
      const wrong = await login('10.5.0.2', client.email, 'whatever-1').expect(401);
      expect(verify).toHaveBeenCalledTimes(argon2Verifies + 1);
      expect(verifyNothing).toHaveBeenCalledTimes(1);
      expect(wrong.body).toEqual(unknown.body);
      expect(unknown.body).toEqual({ statusCode: 401, message: 'Invalid email or password. Please try again.' });

      // At the admin door, a customer's right password is refused like a wrong one: 401, not a telling 403.
      const customer = await login('10.5.0.3', client.email, client.password, 'admin/login').expect(401);
      const nobody = await login('10.5.0.3', 'nobody-here@portal.test', client.password, 'admin/login').expect(401);
      expect(customer.body).toEqual(nobody.body);
      expect(customer.body.message).toBe('Invalid admin credentials or insufficient permissions');
    } finally {
      verify.mockRestore();
      verifyNothing.mockRestore();
    }
  });

  it('does the same password hashing work for a registration of a taken address as for a new one', async () => {
    const taken = await t.signUpClient();
    const hash = jest.spyOn(t.app.get(PasswordHasher), 'hash');
    try {
      await t
        .api()
        .post('/api/register')
        .set('X-Forwarded-For', '10.5.1.1')
        .send({ first_name: 'A', last_name: 'B', email: taken.email, password: 'another-pass-1', password_confirmation: 'another-pass-1' })
        .expect(409);
      expect(hash).toHaveBeenCalledTimes(1);
    } finally {
      hash.mockRestore();
    }
  });

  it('limits registrations per address and verification mails per e-mail address', async () => {
    const attempt = (i: number) =>
      t
        .api()
        .post('/api/register')
        .set('X-Forwarded-For', '10.6.0.1')
        .send({
          first_name: 'R',
          last_name: 'R',
          email: `reg${i}@portal.test`,
          password: 'password-1',
          password_confirmation: 'password-1',
        });
    for (let i = 0; i < 5; i++) await attempt(i).expect(201);
    const blocked = await attempt(99).expect(429);
    expect(blocked.body.message).toMatch(/^Too many registration attempts/);
    expect(blocked.headers['retry-after']).toBeDefined();

    // The registration mailed once; two more resends are allowed, the next is refused (from any address).
    const resend = (from: string) =>
      t.api().post('/api/verify-email/resend').set('X-Forwarded-For', from).send({ email: 'reg0@portal.test' });
    await resend('10.6.1.1').expect(200);
    await resend('10.6.1.2').expect(200);
    const tooMany = await resend('10.6.1.3').expect(429);
    expect(tooMany.body.message).toMatch(/^Too many verification e-mails requested/);
  });
});
