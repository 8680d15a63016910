import { createHmac } from 'node:crypto';
import { auditRows, linkToken, mailWithSubject } from './support/mail';
import { bearer, startTestApp, TestApp } from './support/test-app';
import { awayFromStepBoundary, totpCode } from './support/totp';

const WRONG_CODE = 'Invalid authentication code.';
const EXPIRED = 'Your sign-in has expired. Please log in again.';

interface Admin {
  id: number;
  email: string;
  password: string;
}

let counter = 0;

/** A verified admin made by the seeded admin, as the Users screen would. */
async function createAdmin(t: TestApp): Promise<Admin> {
  counter += 1;
  const admin = { email: `mfa-admin-${counter}-${Date.now()}@portal.test`, password: `mfa-admin-secret-${counter}` };
  const created = await t
    .api()
    .post('/api/admin/users')
    .set(bearer(await t.adminToken()))
    .send({ ...admin, first_name: 'Mia', user_type: 'admin', is_verified: true })
    .expect(201);
  return { id: created.body.data.id, ...admin };
}

const passwordStep = (t: TestApp, admin: Admin) => t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password });

/** Signs in with the password only (no two-factor sign-in yet) and returns the session token. */
async function sessionOf(t: TestApp, admin: Admin): Promise<string> {
  const response = await passwordStep(t, admin).expect(200);
  expect(response.body.data.token).toEqual(expect.any(String));
  return response.body.data.token;
}

/** Sets up and turns on two-factor sign-in for a signed-in admin; returns the secret and the recovery codes. */
async function enrol(t: TestApp, token: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.api().post('/api/admin/mfa/setup').set(bearer(token)).send({ password }).expect(200);
  await awayFromStepBoundary();
  // The step before the current one: the sign-ins that follow use the current and the next one.
  const enabled = await t
    .api()
    .post('/api/admin/mfa/enable')
    .set(bearer(token))
    .send({ code: totpCode(setup.body.data.secret, -1) })
    .expect(200);
  return { secret: setup.body.data.secret, recoveryCodes: enabled.body.data.recovery_codes };
}

async function challengeOf(t: TestApp, admin: Admin): Promise<string> {
  const response = await passwordStep(t, admin).expect(200);
  expect(response.body).toEqual({ success: true, data: { mfa: 'verify', mfa_token: expect.any(String) } });
  return response.body.data.mfa_token;
}

const secondStep = (t: TestApp, body: Record<string, unknown>) => t.api().post('/api/admin/login/mfa').send(body);

describe(`two-factor sign-in for administrators (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '5', THROTTLE_WINDOW_SECONDS: '600' })));
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('sets up with a QR code and the secret shown once, turns on with a first code, and gives ten recovery codes kept hashed', async () => {
    const admin = await createAdmin(t);
    const token = await sessionOf(t, admin);
    const before = await t.api().get('/api/admin/mfa').set(bearer(token)).expect(200);
    expect(before.body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0, required: false });

    const setup = await t.api().post('/api/admin/mfa/setup').set(bearer(token)).send({ password: admin.password }).expect(200);
    const { secret, otpauth_url, qr_code } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(
      `otpauth://totp/StreamHub%20Portal:${encodeURIComponent(admin.email)}?issuer=StreamHub%20Portal&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(Buffer.from(qr_code.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(/^<svg /);
    const [stored] = await t.dataSource.query('SELECT secret, enabled_at FROM user_mfa WHERE user_id = ?', [admin.id]);
    expect(stored.enabled_at).toBeNull();
    expect(stored.secret).not.toContain(secret);
    // Not on until confirmed: the sign-in is still one step.
    await sessionOf(t, admin);

    const wrong = await t.api().post('/api/admin/mfa/enable').set(bearer(token)).send({ code: '000000' }).expect(400);
    expect(wrong.body).toMatchObject({ message: WRONG_CODE, errors: { code: [WRONG_CODE] } });
    expect((await t.api().post('/api/admin/mfa/enable').set(bearer(token)).send({ code: 'abc' }).expect(400)).body.message).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    await awayFromStepBoundary();
    const enabled = await t
      .api()
      .post('/api/admin/mfa/enable')
      .set(bearer(token))
      .send({ code: totpCode(secret) })
      .expect(200);
    const codes: string[] = enabled.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const hashes: Array<{ code_hash: string }> = await t.dataSource.query('SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?', [
      admin.id,
    ]);
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((code) => code_hash.includes(code.replace('-', '')))).toBe(false);
    }

    const after = await t.api().get('/api/admin/mfa').set(bearer(token)).expect(200);
    expect(after.body.data).toMatchObject({ enabled: true, enabled_at: expect.any(String), recovery_codes_left: 10 });
    // The secret is never shown again: a new set-up is refused while it is on.
    await t.api().post('/api/admin/mfa/setup').set(bearer(token)).send({ password: admin.password }).expect(409);
    await auditRows(t, 'auth.mfa_setup');
    const [entry] = await auditRows(t, 'auth.mfa_enable', 2);
    expect(entry).toMatchObject({ level: 'info', actor_email: admin.email });
  });

  it('makes the admin sign-in two steps, and issues the session only after the second', async () => {
    const admin = await createAdmin(t);
    const { secret } = await enrol(t, await sessionOf(t, admin), admin.password);
    const lastLoginBefore = (await t.dataSource.query('SELECT last_login FROM users WHERE id = ?', [admin.id]))[0].last_login;

    const mfaToken = await challengeOf(t, admin);
    // The challenge is no session.
    await t.api().get('/api/me').set(bearer(mfaToken)).expect(401);
    expect((await t.dataSource.query('SELECT last_login FROM users WHERE id = ?', [admin.id]))[0].last_login).toEqual(lastLoginBefore);

    expect((await secondStep(t, { mfa_token: mfaToken, code: '123456' }).expect(401)).body.message).toBe(WRONG_CODE);
    expect((await secondStep(t, { mfa_token: mfaToken }).expect(400)).body.message).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    const signedIn = await secondStep(t, { mfa_token: mfaToken, code: totpCode(secret) }).expect(200);
    expect(signedIn.body.data.admin).toMatchObject({ email: admin.email, user_type: 'admin' });
    await t.api().get('/api/admin/users').set(bearer(signedIn.body.data.token)).expect(200);

    const rows = (await auditRows(t, 'auth.admin_login_mfa', 3)).filter((row) => row.actor_email === admin.email);
    expect(rows.map((row) => row.level)).toEqual(['info', 'warning']);
    expect(rows[1].message).toContain(WRONG_CODE);
  });

  it('refuses a code replayed within its time step, and the code that turned it on', async () => {
    const admin = await createAdmin(t);
    const token = await sessionOf(t, admin);
    const setup = await t.api().post('/api/admin/mfa/setup').set(bearer(token)).send({ password: admin.password }).expect(200);
    await awayFromStepBoundary();
    const code = totpCode(setup.body.data.secret);
    await t.api().post('/api/admin/mfa/enable').set(bearer(token)).send({ code }).expect(200);
    expect((await secondStep(t, { mfa_token: await challengeOf(t, admin), code }).expect(401)).body.message).toBe(WRONG_CODE);

    const next = totpCode(setup.body.data.secret, 1);
    await secondStep(t, { mfa_token: await challengeOf(t, admin), code: next }).expect(200);
    await secondStep(t, { mfa_token: await challengeOf(t, admin), code: next }).expect(401);
    // Nor an older step's code once a later one was taken.
    await secondStep(t, { mfa_token: await challengeOf(t, admin), code: totpCode(setup.body.data.secret) }).expect(401);
  });

  it('lets only one of two racing sign-ins use a code', async () => {
    const admin = await createAdmin(t);
    const { secret } = await enrol(t, await sessionOf(t, admin), admin.password);
    const [first, second] = [await challengeOf(t, admin), await challengeOf(t, admin)];
    const code = totpCode(secret);
    const results = await Promise.all([secondStep(t, { mfa_token: first, code }), secondStep(t, { mfa_token: second, code })]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 401]);
  });

  it('takes each recovery code once', async () => {
    const admin = await createAdmin(t);
    const { recoveryCodes } = await enrol(t, await sessionOf(t, admin), admin.password);
    // As people type it: upper case, spaces.
    const typed = ` ${recoveryCodes[3].toUpperCase().replace('-', ' ')} `;
    const signedIn = await secondStep(t, { mfa_token: await challengeOf(t, admin), recovery_code: typed }).expect(200);
    const status = await t.api().get('/api/admin/mfa').set(bearer(signedIn.body.data.token)).expect(200);
    expect(status.body.data.recovery_codes_left).toBe(9);
    const reused = await secondStep(t, { mfa_token: await challengeOf(t, admin), recovery_code: recoveryCodes[3] }).expect(401);
    expect(reused.body.message).toBe(WRONG_CODE);
    await secondStep(t, { mfa_token: await challengeOf(t, admin), recovery_code: recoveryCodes[4] }).expect(200);
    const [entry] = await auditRows(t, 'auth.admin_login_mfa');
    expect(JSON.parse(entry.context as string).fields).toContain('recovery_code');
  });

  it('limits wrong codes per account: past the limit even the right code waits', async () => {
    const admin = await createAdmin(t);
    const { secret } = await enrol(t, await sessionOf(t, admin), admin.password);
    for (let i = 0; i < 5; i++) await secondStep(t, { mfa_token: await challengeOf(t, admin), code: '000000' }).expect(401);
    const limited = await secondStep(t, { mfa_token: await challengeOf(t, admin), code: totpCode(secret) }).expect(429);
    expect(limited.body.message).toBe('Too many wrong codes. Please try again in 10 minutes.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('refuses a challenge that is expired, of another stage, a session token, or older than a password change', async () => {
    const admin = await createAdmin(t);
    const token = await sessionOf(t, admin);
    const { secret } = await enrol(t, token, admin.password);
    const code = totpCode(secret);
    const valid = await challengeOf(t, admin);
    const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
    const sign = (payload: object) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
      return `${unsigned}.${createHmac('sha256', t.config.jwt.secret).update(unsigned).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    for (const forged of [
      sign({ ...claims, iat: now - 600, exp: now - 300 }),
      sign({ ...claims, stage: 'enroll' }),
      sign({ ...claims, iss: 'streamhub-portal' }),
      token,
    ]) {
      expect((await secondStep(t, { mfa_token: forged, code }).expect(401)).body.message).toBe(EXPIRED);
    }
    // The challenge's own stage refuses the enrolment routes.
    await t.api().post('/api/admin/login/mfa/setup').send({ mfa_token: valid }).expect(401);
    // A password reset voids challenges in flight.
    await t.api().post('/api/password/forgot').send({ email: admin.email }).expect(200);
    const resetToken = linkToken(await mailWithSubject(t, admin.email, 'Reset your password'), 'reset-password')!;
    await t
      .api()
      .post('/api/password/reset')
      .send({ token: resetToken, password: 'after-reset-secret', password_confirmation: 'after-reset-secret' })
      .expect(200);
    expect((await secondStep(t, { mfa_token: valid, code }).expect(401)).body.message).toBe(EXPIRED);
  });

  it('gives no session at the client sign-in to an admin with two-factor sign-in', async () => {
    const admin = await createAdmin(t);
    await t.api().post('/api/login').send({ email: admin.email, password: admin.password }).expect(200);
    await enrol(t, await sessionOf(t, admin), admin.password);
    const refused = await t.api().post('/api/login').send({ email: admin.email, password: admin.password }).expect(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      message: 'This account signs in with two-factor authentication at the admin sign-in.',
    });
    expect(refused.body).not.toHaveProperty('token');
  });

  it('turns off with the password and a code, saying which one is wrong', async () => {
    const admin = await createAdmin(t);
    const token = await sessionOf(t, admin);
    const { secret, recoveryCodes } = await enrol(t, token, admin.password);
    const disable = (body: object) => t.api().post('/api/admin/mfa/disable').set(bearer(token)).send(body);

    const wrongPassword = await disable({ password: 'not-the-password', code: totpCode(secret) }).expect(400);
    expect(wrongPassword.body).toMatchObject({
      message: 'Current password is incorrect.',
      errors: { password: ['Current password is incorrect.'] },
    });
    const wrongCode = await disable({ password: admin.password, code: '999999' }).expect(400);
    expect(wrongCode.body.errors).toEqual({ code: [WRONG_CODE] });
    expect((await disable({ password: admin.password }).expect(400)).body.message).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    // Still on, and the session still works (a 400, not a 401, so the screen keeps it).
    expect((await t.api().get('/api/admin/mfa').set(bearer(token)).expect(200)).body.data.enabled).toBe(true);

    await disable({ password: admin.password, recovery_code: recoveryCodes[0] }).expect(200);
    expect((await t.api().get('/api/admin/mfa').set(bearer(token)).expect(200)).body.data).toMatchObject({
      enabled: false,
      recovery_codes_left: 0,
    });
    expect(await t.dataSource.query('SELECT id FROM mfa_recovery_codes WHERE user_id = ?', [admin.id])).toEqual([]);
    await sessionOf(t, admin);
    await auditRows(t, 'auth.mfa_disable', 3);
  });

  it('renews the recovery codes with a code; the old ones stop working', async () => {
    const admin = await createAdmin(t);
    const token = await sessionOf(t, admin);
    const { secret, recoveryCodes } = await enrol(t, token, admin.password);
    const renewed = await t
      .api()
      .post('/api/admin/mfa/recovery-codes')
      .set(bearer(token))
      .send({ code: totpCode(secret) })
      .expect(200);
    expect(renewed.body.data.recovery_codes).toHaveLength(10);
    await secondStep(t, { mfa_token: await challengeOf(t, admin), recovery_code: recoveryCodes[0] }).expect(401);
    await secondStep(t, { mfa_token: await challengeOf(t, admin), recovery_code: renewed.body.data.recovery_codes[0] }).expect(200);
  });

  describe('with ADMIN_REQUIRE_MFA=true', () => {
    let strict: TestApp;
    beforeAll(async () => (strict = await startTestApp({ ADMIN_REQUIRE_MFA: 'true' })));
    afterAll(async () => {
      expect(strict.statuses.filter((status) => status >= 500)).toEqual([]);
      await strict.close();
    });

    it('makes an admin without it set it up at the next sign-in, before any session', async () => {
      const first = await strict
        .api()
        .post('/api/admin/login')
        .send({ email: 'admin@portal.test', password: 'admin-password-1' })
        .expect(200);
      expect(first.body.data).toEqual({ mfa: 'enroll', mfa_token: expect.any(String) });
      const mfaToken = first.body.data.mfa_token;
      await strict.api().get('/api/me').set(bearer(mfaToken)).expect(401);
      // An enrolment challenge is not a second step.
      await strict.api().post('/api/admin/login/mfa').send({ mfa_token: mfaToken, code: '123456' }).expect(401);
      await strict.api().post('/api/login').send({ email: 'admin@portal.test', password: 'admin-password-1' }).expect(403);

      const setup = await strict.api().post('/api/admin/login/mfa/setup').send({ mfa_token: mfaToken }).expect(200);
      expect(setup.body.data.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
      await strict.api().post('/api/admin/login/mfa/enable').send({ mfa_token: mfaToken, code: '000000' }).expect(400);
      await awayFromStepBoundary();
      const enabled = await strict
        .api()
        .post('/api/admin/login/mfa/enable')
        .send({ mfa_token: mfaToken, code: totpCode(setup.body.data.secret, -1) })
        .expect(200);
      expect(enabled.body.data).toMatchObject({ token: expect.any(String), admin: { email: 'admin@portal.test' } });
      expect(enabled.body.data.recovery_codes).toHaveLength(10);
      const status = await strict.api().get('/api/admin/mfa').set(bearer(enabled.body.data.token)).expect(200);
      expect(status.body.data).toMatchObject({ enabled: true, required: true, recovery_codes_left: 10 });

      // From now on the sign-in asks for a code.
      const next = await strict
        .api()
        .post('/api/admin/login')
        .send({ email: 'admin@portal.test', password: 'admin-password-1' })
        .expect(200);
      expect(next.body.data.mfa).toBe('verify');
      await strict
        .api()
        .post('/api/admin/login/mfa')
        .send({ mfa_token: next.body.data.mfa_token, code: totpCode(setup.body.data.secret) })
        .expect(200);
      // Turning it on ended every earlier way in, the enrolment token among them.
      await strict.api().post('/api/admin/login/mfa/setup').send({ mfa_token: mfaToken }).expect(401);
    });
  });
});
