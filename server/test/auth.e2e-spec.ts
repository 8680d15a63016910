import { UserEntity } from '../src/modules/users/user.entity';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@portal.test',
  password: 'analytical-engine',
  password_confirmation: 'analytical-engine',
};

describe(`auth (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  const users = () => t.dataSource.getRepository(UserEntity);

  describe('registration', () => {
    it.each([
      ['an empty first name', { first_name: '' }, 'This field is required'],
      ['a missing last name', { last_name: undefined }, 'This field is required'],
      ['an empty password even with a bad e-mail', { password: '', email: 'nope' }, 'This field is required'],
      [
        'an invalid e-mail before a short password',
        { email: 'not-an-email', password: 'short', password_confirmation: 'short' },
        'Please enter a valid email address',
      ],
      [
        'a short password before a mismatch',
        { password: 'short', password_confirmation: 'other' },
        'Password must be at least 8 characters',
      ],
      ['a confirmation that differs', { password_confirmation: 'analytical-engine!' }, 'Passwords do not match'],
      [
        'a common password (from lists of leaked ones, in any letter case)',
        { password: 'Password123', password_confirmation: 'Password123' },
        'This password is too common. Please choose one that is harder to guess.',
      ],
      [
        'a common password of digits',
        { password: '12345678', password_confirmation: '12345678' },
        'This password is too common. Please choose one that is harder to guess.',
      ],
    ])('checks the rules in the spec order: %s', async (_case, change, message) => {
      const response = await t
        .api()
        .post('/api/register')
        .send({ ...valid, ...change })
        .expect(400);
      expect(response.body.message).toBe(message);
      expect(await users().countBy({ email: valid.email })).toBe(0);
    });

    it('reports every failing field in errors', async () => {
      const response = await t
        .api()
        .post('/api/register')
        .send({ first_name: '', last_name: '', email: 'x', password: '1', password_confirmation: '2' })
        .expect(400);
      expect(response.body.errors).toEqual({
        first_name: ['This field is required'],
        last_name: ['This field is required'],
        email: ['Please enter a valid email address'],
        password: ['Password must be at least 8 characters'],
        password_confirmation: ['Passwords do not match'],
      });
    });

    it('creates an unverified client, stores an argon2id hash, and mails a verification link', async () => {
      const response = await t.api().post('/api/register').send(valid).expect(201);
      expect(response.body).toMatchObject({ success: true, data: { email: valid.email } });
      const user = await users().findOneByOrFail({ email: valid.email });
      expect(user).toMatchObject({ role: 'client', is_verified: false, is_active: true, first_name: 'Ada' });
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      expect(user.verification_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(t.verificationTokenFor(valid.email)).toHaveLength(43);
    });

    it('refuses an e-mail that is already registered, in any letter case, with errors.email', async () => {
      const response = await t
        .api()
        .post('/api/register')
        .send({ ...valid, email: ' ADA@Portal.test ' })
        .expect(409);
      expect(response.body.errors.email).toEqual(['This email is already registered.']);
      expect(await users().countBy({ email: valid.email })).toBe(1);
    });

    it('gives one account when the same registration races', async () => {
      const email = 'race@portal.test';
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          t
            .api()
            .post('/api/register')
            .send({ ...valid, email }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(await users().countBy({ email })).toBe(1);
    });
  });

  describe('e-mail verification and client login', () => {
    it('refuses login before verification with the spec message', async () => {
      const response = await t.api().post('/api/login').send({ email: valid.email, password: valid.password }).expect(403);
      expect(response.body.message).toBe('Account not verified. Please check your email.');
    });

    it('verifies with the mailed token exactly once', async () => {
      const token = t.verificationTokenFor(valid.email);
      await t.api().post('/api/verify-email').send({ token }).expect(200);
      const again = await t.api().post('/api/verify-email').send({ token }).expect(400);
      expect(again.body.message).toBe('This verification link is invalid or has expired.');
      expect(await users().findOneByOrFail({ email: valid.email })).toMatchObject({ is_verified: true, verification_token_hash: null });
    });

    it('refuses an expired verification token', async () => {
      await t
        .api()
        .post('/api/register')
        .send({ ...valid, email: 'late@portal.test' })
        .expect(201);
      await users().update({ email: 'late@portal.test' }, { verification_token_expires: new Date(Date.now() - 1000) });
      await t
        .api()
        .post('/api/verify-email')
        .send({ token: t.verificationTokenFor('late@portal.test') })
        .expect(400);
      expect((await users().findOneByOrFail({ email: 'late@portal.test' })).is_verified).toBe(false);
    });

    it('resends a fresh link that replaces the old one, and answers alike for unknown addresses', async () => {
      const before = t.verificationTokenFor('late@portal.test');
      const known = await t.api().post('/api/verify-email/resend').send({ email: 'late@portal.test' }).expect(200);
      const unknown = await t.api().post('/api/verify-email/resend').send({ email: 'nobody@portal.test' }).expect(200);
      expect(unknown.body.message).toBe(known.body.message);
      const after = t.verificationTokenFor('late@portal.test');
      expect(after).not.toBe(before);
      await t.api().post('/api/verify-email').send({ token: before }).expect(400);
      await t.api().post('/api/verify-email').send({ token: after }).expect(200);
    });

    it('signs in a verified client with {token, user} carrying every session field', async () => {
      const response = await t.api().post('/api/login').send({ email: 'ADA@portal.test', password: valid.password }).expect(200);
      expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
      expect(response.body.user).toEqual({
        id: expect.any(Number),
        email: valid.email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        user_type: 'client',
        role: 'client',
        is_verified: true,
        company: null,
        phone: null,
        country: null,
      });
      const me = await t.api().get('/api/me').set(bearer(response.body.token)).expect(200);
      expect(me.body.data.email).toBe(valid.email);
      expect((await users().findOneByOrFail({ email: valid.email })).last_login).toBeInstanceOf(Date);
    });

    it.each([
      ['an unknown e-mail', { email: 'ghost@portal.test', password: 'whatever-1' }, 401, 'Invalid email or password. Please try again.'],
      ['a wrong password', { email: valid.email, password: 'wrong-password' }, 401, 'Invalid email or password. Please try again.'],
      ['an empty password', { email: valid.email, password: '' }, 400, 'Email and password are required'],
      ['a missing e-mail', { password: 'x' }, 400, 'Email and password are required'],
    ])('refuses %s with the spec message', async (_case, body, status, message) => {
      const response = await t.api().post('/api/login').send(body).expect(status);
      expect(response.body.message).toBe(message);
    });

    it('refuses an inactive account with the answer of a wrong password', async () => {
      const client = await t.signUpClient();
      await users().update({ id: client.id }, { is_active: false });
      const response = await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(401);
      expect(response.body.message).toBe('Invalid email or password. Please try again.');
    });
  });

  describe('admin login', () => {
    it('answers {success, data: {token, admin}} for an admin', async () => {
      const response = await t.api().post('/api/admin/login').send(ADMIN).expect(200);
      expect(response.body.success).toBe(true);
      expect(response.body.data.admin).toMatchObject({ email: ADMIN.email, first_name: 'Admin', last_name: '', is_verified: true });
      await t.api().get('/api/admin/users').set(bearer(response.body.data.token)).expect(200);
    });

    it('refuses a client with the right password as it refuses a wrong one (401, so the answer tells nothing)', async () => {
      const client = await t.signUpClient();
      const response = await t.api().post('/api/admin/login').send({ email: client.email, password: client.password }).expect(401);
      expect(response.body.message).toBe('Invalid admin credentials or insufficient permissions');
    });

    it.each([
      ['an unknown e-mail', { email: 'ghost@portal.test', password: 'x' }, 401, 'Invalid admin credentials or insufficient permissions'],
      ['a wrong password', { email: ADMIN.email, password: 'wrong' }, 401, 'Invalid admin credentials or insufficient permissions'],
    ])('refuses %s with the admin message', async (_case, body, status, message) => {
      const response = await t.api().post('/api/admin/login').send(body).expect(status);
      expect(response.body.message).toBe(message);
    });

    it('refuses an unverified admin with the admin message', async () => {
      const admin = await t.adminToken();
      await t
        .api()
        .post('/api/admin/users')
        .set(bearer(admin))
        .send({ email: 'newadmin@portal.test', password: 'secret-1x', user_type: 'admin' })
        .expect(201);
      const response = await t.api().post('/api/admin/login').send({ email: 'newadmin@portal.test', password: 'secret-1x' }).expect(403);
      expect(response.body.message).toBe('Admin account not verified. Please check your email.');
    });
  });

  describe('sessions', () => {
    it('logout makes the token unusable at once', async () => {
      const client = await t.signUpClient();
      await t.api().get('/api/me').set(bearer(client.token)).expect(200);
      await t.api().post('/api/logout').set(bearer(client.token)).expect(200);
      const after = await t.api().get('/api/me').set(bearer(client.token)).expect(401);
      expect(after.body.message).toBe('Authentication expired. Please log in again.');
    });

    it('a token used a moment ago is refused once it expires, and a tampered copy of it is refused', async () => {
      const client = await t.signUpClient();
      await t.api().get('/api/me').set(bearer(client.token)).expect(200);
      await t
        .api()
        .get(`/api/download/1`)
        .set(bearer(`${client.token}x`))
        .expect(401);
      const [, payload] = client.token.split('.');
      const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
      const clock = jest.spyOn(Date, 'now').mockReturnValue(exp * 1000 + 1000);
      try {
        await t.api().get('/api/me').set(bearer(client.token)).expect(401);
        await t.api().get('/api/download/1').set(bearer(client.token)).expect(401);
      } finally {
        clock.mockRestore();
      }
    });

    it('logging out one session leaves the user’s other sessions alone', async () => {
      const client = await t.signUpClient();
      const second = await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(200);
      await t.api().post('/api/logout').set(bearer(client.token)).expect(200);
      await t.api().get('/api/me').set(bearer(second.body.token)).expect(200);
    });

    it('deactivation kills the user’s tokens, and reactivation does not revive them', async () => {
      const client = await t.signUpClient();
      const admin = await t.adminToken();
      await t.api().post(`/api/admin/users/${client.id}/toggle-status`).set(bearer(admin)).expect(200);
      await t.api().get('/api/me').set(bearer(client.token)).expect(401);
      await t.api().post(`/api/admin/users/${client.id}/toggle-status`).set(bearer(admin)).expect(200);
      await t.api().get('/api/me').set(bearer(client.token)).expect(401);
      await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(200);
    });

    it('a password change kills the user’s tokens; the new password works', async () => {
      const client = await t.signUpClient();
      const admin = await t.adminToken();
      await t.api().put(`/api/admin/users/${client.id}`).set(bearer(admin)).send({ password: 'brand-new-pass' }).expect(200);
      await t.api().get('/api/me').set(bearer(client.token)).expect(401);
      await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(401);
      await t.api().post('/api/login').send({ email: client.email, password: 'brand-new-pass' }).expect(200);
    });
  });
});
