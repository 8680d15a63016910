import { UserEntity } from '../src/modules/users/user.entity';
import { auditRows, linkToken, mailsTo, mailWithSubject } from './support/mail';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

const FORGOT_ANSWER = 'If an account exists for this address, we have sent it a link to reset the password.';
const INVALID_LINK = 'This password reset link is invalid or has expired.';

describe(`password reset (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let address = 0;
  beforeAll(
    async () =>
      (t = await startTestApp({
        // Each test asks from its own client address (X-Forwarded-For, trusted from loopback), so limits do not mix.
        TRUST_PROXY: 'loopback',
      })),
  );
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  const users = () => t.dataSource.getRepository(UserEntity);
  const from = () => `10.13.0.${++address}`;
  const forgot = (email: string, ip = from()) => t.api().post('/api/password/forgot').set('X-Forwarded-For', ip).send({ email });
  const reset = (token: string, password: string, confirmation = password) =>
    t.api().post('/api/password/reset').send({ token, password, password_confirmation: confirmation });

  /** Asks for a reset link for this address and returns the token from the mail. */
  async function resetToken(email: string): Promise<string> {
    const before = mailsTo(t, email).length;
    await forgot(email).expect(200);
    return linkToken(await mailWithSubject(t, email, 'Reset your password', before), 'reset-password')!;
  }

  it('answers an unknown address exactly as a known one, and mails only the known one', async () => {
    const client = await t.signUpClient();
    const known = await forgot(client.email).expect(200);
    const unknown = await forgot('nobody-here@portal.test').expect(200);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ success: true, message: FORGOT_ANSWER });
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

    const mail = await mailWithSubject(t, client.email, 'Reset your password');
    expect(mail).toMatch(/\/reset-password\?token=[\w-]{43}\n/);
    expect(mail).toContain('expires in 1 hour');
    // The other address got nothing, and no account was made for it.
    await auditRows(t, 'auth.password_forgot', 2);
    expect(mailsTo(t, 'nobody-here@portal.test')).toEqual([]);
    expect(await users().countBy({ email: 'nobody-here@portal.test' })).toBe(0);
  });

  it('keeps only a hash of the token, and shows the admin the expiry but never the token', async () => {
    const client = await t.signUpClient();
    const token = await resetToken(client.email);
    const stored = await users().findOneByOrFail({ id: client.id });
    expect(stored.password_reset_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.password_reset_token_hash).not.toContain(token);
    expect(stored.password_reset_expires!.getTime() - Date.now()).toBeGreaterThan(3590_000);

    const admin = await t.adminToken();
    const seen = await t.api().get(`/api/admin/users/${client.id}`).set(bearer(admin)).expect(200);
    expect(new Date(seen.body.data.password_reset_expires).getTime()).toBe(stored.password_reset_expires!.getTime());
    expect(seen.body.data).not.toHaveProperty('password_reset_token');
    expect(JSON.stringify(seen.body)).not.toContain(token);
    expect(JSON.stringify(seen.body)).not.toContain(stored.password_reset_token_hash!.slice(0, 12));
  });

  it('sets the new password once, ends every session, and mails a confirmation', async () => {
    const client = await t.signUpClient();
    const second = await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(200);
    const token = await resetToken(client.email);

    const done = await reset(token, 'a-brand-new-secret').expect(200);
    expect(done.body).toEqual({
      success: true,
      message: 'Your password has been changed. Please log in with your new password.',
      data: { email: client.email, user_type: 'client' },
    });
    for (const session of [client.token, second.body.token]) await t.api().get('/api/me').set(bearer(session)).expect(401);
    expect(await t.dataSource.query('SELECT id FROM sessions WHERE user_id = ?', [client.id])).toEqual([]);
    await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(401);
    await t.api().post('/api/login').send({ email: client.email, password: 'a-brand-new-secret' }).expect(200);
    expect(await mailWithSubject(t, client.email, 'Your password was changed')).toContain('every device signed in to it was signed out');

    // Used once: the same link again changes nothing.
    const reused = await reset(token, 'yet-another-secret').expect(400);
    expect(reused.body.message).toBe(INVALID_LINK);
    await t.api().post('/api/login').send({ email: client.email, password: 'a-brand-new-secret' }).expect(200);
    const [row] = await auditRows(t, 'auth.password_reset', 2);
    expect(row.level).toBe('warning');
  });

  it('refuses an expired token and leaves the password as it was', async () => {
    const client = await t.signUpClient();
    const token = await resetToken(client.email);
    await users().update({ id: client.id }, { password_reset_expires: new Date(Date.now() - 1000) });
    const expired = await reset(token, 'too-late-secret').expect(400);
    expect(expired.body.message).toBe(INVALID_LINK);
    await t.api().get('/api/me').set(bearer(client.token)).expect(200);
    await t.api().post('/api/login').send({ email: client.email, password: client.password }).expect(200);
  });

  it('refuses a token that was never issued, and an older link once a newer one was mailed', async () => {
    const client = await t.signUpClient();
    await reset('x'.repeat(43), 'made-up-secret').expect(400);
    const older = await resetToken(client.email);
    const newer = await resetToken(client.email);
    expect((await reset(older, 'old-link-secret').expect(400)).body.message).toBe(INVALID_LINK);
    await reset(newer, 'new-link-secret').expect(200);
  });

  it.each([
    ['a short password', 'short', 'short', 'Password must be at least 8 characters'],
    ['a common password', 'Password123', 'Password123', 'This password is too common. Please choose one that is harder to guess.'],
    ['a confirmation that differs', 'long-enough-1', 'long-enough-2', 'Passwords do not match'],
  ])('keeps the registration rules: %s', async (_case, password, confirmation, message) => {
    const client = await t.signUpClient();
    const token = await resetToken(client.email);
    expect((await reset(token, password, confirmation).expect(400)).body.message).toBe(message);
    // The link still works for a good password.
    await reset(token, 'a-good-new-secret').expect(200);
  });

  it('lets only one of two racing requests use a link', async () => {
    const client = await t.signUpClient();
    const token = await resetToken(client.email);
    const results = await Promise.all([reset(token, 'racing-secret-1'), reset(token, 'racing-secret-2')]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 400]);
  });

  it('verifies the address of an unverified account, since the link proved it', async () => {
    await t
      .api()
      .post('/api/register')
      .send({
        first_name: 'Una',
        last_name: 'Verified',
        email: 'una@portal.test',
        password: 'una-secret-1',
        password_confirmation: 'una-secret-1',
      })
      .expect(201);
    // The admin's list shows it at once, though it keeps exact totals for a few seconds.
    const admin = await t.adminToken();
    const unverified = async () =>
      (await t.api().get('/api/admin/users').query({ search: 'una@', email_status: 'unverified' }).set(bearer(admin)).expect(200)).body.meta
        .total;
    expect(await unverified()).toBe(1);
    await reset(await resetToken('una@portal.test'), 'una-secret-2').expect(200);
    await t.api().post('/api/login').send({ email: 'una@portal.test', password: 'una-secret-2' }).expect(200);
    expect(await unverified()).toBe(0);
  });

  it('mails nothing for an inactive account', async () => {
    const client = await t.signUpClient();
    await users().update({ id: client.id }, { is_active: false });
    await forgot(client.email).expect(200);
    await forgot(ADMIN.email).expect(200);
    await mailWithSubject(t, ADMIN.email, 'Reset your password');
    expect(mailsTo(t, client.email).filter((mail) => mail.includes('Reset your password'))).toEqual([]);
  });

  it('refuses a malformed request with a clear 400', async () => {
    expect((await t.api().post('/api/password/forgot').send({ email: 'not-an-address' }).expect(400)).body.message).toBe(
      'Please enter a valid email address',
    );
    expect(
      (
        await t
          .api()
          .post('/api/password/reset')
          .send({ password: 'a-good-secret-1', password_confirmation: 'a-good-secret-1' })
          .expect(400)
      ).body.message,
    ).toBe('Reset token is required');
  });

  describe('with a limit of 6 requests per client address', () => {
    let limited: TestApp;
    beforeAll(
      async () =>
        (limited = await startTestApp({ TRUST_PROXY: 'loopback', THROTTLE_REGISTRATIONS_PER_IP: '6', THROTTLE_WINDOW_SECONDS: '600' })),
    );
    afterAll(() => limited.close());
    const limitedForgot = (email: string, ip = from()) =>
      limited.api().post('/api/password/forgot').set('X-Forwarded-For', ip).send({ email });

    it('limits requests per address, whoever asks, and per client address, whatever they ask for', async () => {
      const client = await limited.signUpClient();
      for (let i = 0; i < 3; i++) await limitedForgot(client.email).expect(200);
      const perAddress = await limitedForgot(client.email).expect(429);
      expect(perAddress.body.message).toBe('Too many password reset requests. Please try again in 10 minutes.');
      expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(500);
      // An address without an account is limited the same way, so the limit tells nothing either.
      for (let i = 0; i < 3; i++) await limitedForgot('ghost-limit@portal.test').expect(200);
      await limitedForgot('ghost-limit@portal.test').expect(429);

      const ip = from();
      for (let i = 0; i < 6; i++) await limitedForgot(`probe${i}@portal.test`, ip).expect(200);
      await limitedForgot('probe-next@portal.test', ip).expect(429);
      await limitedForgot('probe-next@portal.test').expect(200);
    });
  });
});
