import { createVersion, countRows, postFile, someBytes, storedFiles } from './support/distribution';
import { ADMIN_PRODUCT } from './support/licensing';
import { linkToken, mailsTo, mailWithSubject } from './support/mail';
import { bearer, startTestApp, TestApp } from './support/test-app';
import { awayFromStepBoundary, totpCode } from './support/totp';

const RESET_LINK_INVALID = 'This password reset link is invalid or has expired.';
const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired.';
const CHALLENGE_EXPIRED = 'Your sign-in has expired. Please log in again.';

/**
 * What ends when an account changes hands back to its owner: a password reset or change voids every link mailed
 * before (a thief's pending e-mail change above all), a new address voids the reset links sent to the old one, a
 * role change and turning two factors on end the sessions, and a second step gives one session.
 */
describe(`account security: what a reset, a password change, a role change and two factors end (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  let counter = 0;
  const address = (who: string) => `${who}-${++counter}-${Date.now()}@elsewhere.test`;
  const me = (token: string) => t.api().get('/api/me').set(bearer(token));
  const licenseRows = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM licenses'))[0].n);
  const emailOf = async (id: number) => (await t.dataSource.query('SELECT email FROM users WHERE id = ?', [id]))[0].email as string;

  /** The thief, signed in with the stolen password, asks for their own address; returns the link's token from their mailbox. */
  async function thiefAsksForTheirAddress(victim: {
    email: string;
    password: string;
  }): Promise<{ session: string; token: string; email: string }> {
    const session = (await t.api().post('/api/login').send({ email: victim.email, password: victim.password }).expect(200)).body.token;
    const email = address('thief');
    await t.api().post('/api/profile/email').set(bearer(session)).send({ email, current_password: victim.password }).expect(200);
    const token = linkToken(await mailWithSubject(t, email, 'Confirm your new e-mail address'), 'confirm-email')!;
    expect(token).toEqual(expect.any(String));
    return { session, token, email };
  }

  async function resetThroughMail(email: string, password: string): Promise<void> {
    const before = mailsTo(t, email).length;
    await t.api().post('/api/password/forgot').send({ email }).expect(200);
    const token = linkToken(await mailWithSubject(t, email, 'Reset your password', before), 'reset-password')!;
    await t.api().post('/api/password/reset').send({ token, password, password_confirmation: password }).expect(200);
  }

  describe('a pending e-mail change', () => {
    it('dies with a password reset: the thief who asked for it cannot confirm it, and the notice says it was cancelled', async () => {
      const victim = await t.signUpClient();
      const thief = await thiefAsksForTheirAddress(victim);

      await resetThroughMail(victim.email, 'victim-took-it-back-1');
      await me(thief.session).expect(401);
      const refused = await t.api().post('/api/profile/email/confirm').send({ token: thief.token }).expect(400);
      expect(refused.body.message).toBe(EMAIL_LINK_INVALID);
      expect(await emailOf(victim.id)).toBe(victim.email);
      // The thief's address never became one a reset could be mailed to.
      await t.api().post('/api/password/forgot').send({ email: thief.email }).expect(200);
      await t.api().post('/api/login').send({ email: victim.email, password: 'victim-took-it-back-1' }).expect(200);

      const notice = await mailWithSubject(t, victim.email, 'Your password was changed');
      expect(notice).toContain(`The change of your e-mail address to ${thief.email} that was waiting for confirmation is cancelled`);
      expect(notice).toContain('no longer works');
      const profile = await t
        .api()
        .get('/api/profile')
        .set(bearer((await t.api().post('/api/login').send({ email: victim.email, password: 'victim-took-it-back-1' })).body.token));
      expect(profile.body.data).toMatchObject({ email: victim.email, pending_email: null, pending_email_expires: null });
    });

    it('dies with a password change on the profile page', async () => {
      const victim = await t.signUpClient();
      const thief = await thiefAsksForTheirAddress(victim);
      await t
        .api()
        .post('/api/profile/password')
        .set(bearer(victim.token))
        .send({ current_password: victim.password, password: 'victim-new-secret-2', password_confirmation: 'victim-new-secret-2' })
        .expect(200);
      await me(thief.session).expect(401);
      await me(victim.token).expect(200);
      expect((await t.api().post('/api/profile/email/confirm').send({ token: thief.token }).expect(400)).body.message).toBe(
        EMAIL_LINK_INVALID,
      );
      expect(await emailOf(victim.id)).toBe(victim.email);
      const notice = await mailWithSubject(t, victim.email, 'Your password was changed');
      expect(notice).toContain(`The change of your e-mail address to ${thief.email} that was waiting for confirmation is cancelled`);
    });

    it('dies when an admin sets a new password for the account', async () => {
      const victim = await t.signUpClient();
      const thief = await thiefAsksForTheirAddress(victim);
      await t
        .api()
        .put(`/api/admin/users/${victim.id}`)
        .set(bearer(await t.adminToken()))
        .send({ password: 'set-by-the-admin-3' })
        .expect(200);
      await me(thief.session).expect(401);
      expect((await t.api().post('/api/profile/email/confirm').send({ token: thief.token }).expect(400)).body.message).toBe(
        EMAIL_LINK_INVALID,
      );
    });
  });

  describe('a reset link', () => {
    it('mailed to the old address no longer works once a new address is confirmed', async () => {
      const client = await t.signUpClient();
      await t.api().post('/api/password/forgot').send({ email: client.email }).expect(200);
      const oldLink = linkToken(await mailWithSubject(t, client.email, 'Reset your password'), 'reset-password')!;

      const newEmail = address('moved');
      await t
        .api()
        .post('/api/profile/email')
        .set(bearer(client.token))
        .send({ email: newEmail, current_password: client.password })
        .expect(200);
      const confirm = linkToken(await mailWithSubject(t, newEmail, 'Confirm your new e-mail address'), 'confirm-email')!;
      await t.api().post('/api/profile/email/confirm').send({ token: confirm }).expect(200);
      expect(await mailWithSubject(t, client.email, 'Your e-mail address was changed')).toContain(
        'Links mailed before (password reset) no longer work.',
      );

      const refused = await t
        .api()
        .post('/api/password/reset')
        .send({ token: oldLink, password: 'through-the-old-link-1', password_confirmation: 'through-the-old-link-1' })
        .expect(400);
      expect(refused.body.message).toBe(RESET_LINK_INVALID);
      await t.api().post('/api/login').send({ email: newEmail, password: client.password }).expect(200);
    });

    it('issued before a password change no longer works after it', async () => {
      const client = await t.signUpClient();
      await t.api().post('/api/password/forgot').send({ email: client.email }).expect(200);
      const link = linkToken(await mailWithSubject(t, client.email, 'Reset your password'), 'reset-password')!;
      await t
        .api()
        .post('/api/profile/password')
        .set(bearer(client.token))
        .send({ current_password: client.password, password: 'changed-on-profile-4', password_confirmation: 'changed-on-profile-4' })
        .expect(200);
      const refused = await t
        .api()
        .post('/api/password/reset')
        .send({ token: link, password: 'through-the-old-link-2', password_confirmation: 'through-the-old-link-2' })
        .expect(400);
      expect(refused.body.message).toBe(RESET_LINK_INVALID);
      await t.api().post('/api/login').send({ email: client.email, password: 'changed-on-profile-4' }).expect(200);
    });
  });

  describe('a role change', () => {
    const setRole = async (id: number, user_type: 'admin' | 'client') =>
      t
        .api()
        .put(`/api/admin/users/${id}`)
        .set(bearer(await t.adminToken()))
        .send({ user_type })
        .expect(200);

    it("ends a customer's sessions when promoted: no session becomes an admin session", async () => {
      const client = await t.signUpClient();
      await setRole(client.id, 'admin');
      await me(client.token).expect(401);
      await t.api().get('/api/admin/users').set(bearer(client.token)).expect(401);
      // The new admin signs in at the admin door and gets an admin session from there.
      const admin = await t.api().post('/api/admin/login').send({ email: client.email, password: client.password }).expect(200);
      await t.api().get('/api/admin/users').set(bearer(admin.body.data.token)).expect(200);
    });

    it("ends an admin's sessions when demoted, and the customer session made meanwhile when promoted back", async () => {
      const person = await t.signUpClient();
      await setRole(person.id, 'admin');
      const adminSession = (await t.api().post('/api/admin/login').send({ email: person.email, password: person.password }).expect(200))
        .body.data.token;
      const { secret } = await enrol(adminSession, person.password);

      await setRole(person.id, 'client');
      await me(adminSession).expect(401);
      const customerSession = (await t.api().post('/api/login').send({ email: person.email, password: person.password }).expect(200)).body
        .token;
      await t.api().get('/api/admin/users').set(bearer(customerSession)).expect(403);

      await setRole(person.id, 'admin');
      await me(customerSession).expect(401);
      await t.api().get('/api/admin/users').set(bearer(customerSession)).expect(401);
      // Back at the admin door, the second factor is asked for again.
      const challenge = await t.api().post('/api/admin/login').send({ email: person.email, password: person.password }).expect(200);
      expect(challenge.body.data).toEqual({ mfa: 'verify', mfa_token: expect.any(String) });
      await awayFromStepBoundary();
      await t
        .api()
        .post('/api/admin/login/mfa')
        .send({ mfa_token: challenge.body.data.mfa_token, code: totpCode(secret, 1) })
        .expect(200);
    });
  });

  /** A new admin (made by the seeded one) signed in with the password only. */
  async function newAdmin(): Promise<{ id: number; email: string; password: string; session: string }> {
    const account = { email: address('admin'), password: 'second-admin-secret-5' };
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(await t.adminToken()))
      .send({ ...account, first_name: 'Ada', user_type: 'admin', is_verified: true })
      .expect(201);
    const session = (await t.api().post('/api/admin/login').send(account).expect(200)).body.data.token;
    return { id: created.body.data.id, ...account, session };
  }

  async function enrol(session: string, password: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await t.api().post('/api/admin/mfa/setup').set(bearer(session)).send({ password }).expect(200);
    await awayFromStepBoundary();
    const enabled = await t
      .api()
      .post('/api/admin/mfa/enable')
      .set(bearer(session))
      .send({ code: totpCode(setup.body.data.secret, -1) })
      .expect(200);
    return { secret: setup.body.data.secret, recoveryCodes: enabled.body.data.recovery_codes };
  }

  describe('two-factor sign-in', () => {
    it('asks for the password to set up an authenticator, so a stolen session alone cannot enrol one', async () => {
      const admin = await newAdmin();
      const setup = (body: object) => t.api().post('/api/admin/mfa/setup').set(bearer(admin.session)).send(body);
      expect((await setup({}).expect(400)).body.errors).toEqual({ password: ['Current password is required'] });
      const wrong = await setup({ password: 'what-a-thief-guesses' }).expect(400);
      expect(wrong.body).toMatchObject({
        message: 'Current password is incorrect.',
        errors: { password: ['Current password is incorrect.'] },
      });
      expect(await t.dataSource.query('SELECT user_id FROM user_mfa WHERE user_id = ?', [admin.id])).toEqual([]);
      await setup({ password: admin.password }).expect(200);
    });

    it('ends the other sessions when turned on; the one it was turned on in lives on', async () => {
      const admin = await newAdmin();
      const other = (await t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password }).expect(200)).body.data
        .token;
      const customerDoor = (await t.api().post('/api/login').send({ email: admin.email, password: admin.password }).expect(200)).body.token;
      await enrol(admin.session, admin.password);
      await me(other).expect(401);
      await me(customerDoor).expect(401);
      await t.api().get('/api/admin/users').set(bearer(admin.session)).expect(200);
    });

    it('counts an admin session of an account with two factors only where the second factor was passed', async () => {
      const admin = await newAdmin();
      const { secret } = await enrol(admin.session, admin.password);
      const challenge = (await t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password }).expect(200)).body
        .data.mfa_token;
      await awayFromStepBoundary();
      const session = (
        await t
          .api()
          .post('/api/admin/login/mfa')
          .send({ mfa_token: challenge, code: totpCode(secret, 1) })
          .expect(200)
      ).body.data.token;
      await t.api().get('/api/admin/users').set(bearer(session)).expect(200);
      // A session row that did not pass it (as one made before the upgrade) is no admin session.
      await t.dataSource.query('UPDATE sessions SET second_factor = ? WHERE user_id = ?', [false, admin.id]);
      await t.api().get('/api/admin/users').set(bearer(session)).expect(401);
      await t.api().get('/api/admin/users').set(bearer(admin.session)).expect(401);
    });

    it('spends a second-step token with its first success: a later code or a recovery code gets no second session', async () => {
      const admin = await newAdmin();
      const { secret, recoveryCodes } = await enrol(admin.session, admin.password);
      const challenge = (await t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password }).expect(200)).body
        .data.mfa_token;
      await awayFromStepBoundary();
      await t
        .api()
        .post('/api/admin/login/mfa')
        .send({ mfa_token: challenge, code: totpCode(secret) })
        .expect(200);
      for (const proof of [{ code: totpCode(secret, 1) }, { recovery_code: recoveryCodes[0] }]) {
        const refused = await t
          .api()
          .post('/api/admin/login/mfa')
          .send({ mfa_token: challenge, ...proof })
          .expect(401);
        expect(refused.body.message).toBe(CHALLENGE_EXPIRED);
      }
      // The refusals spent nothing: the next code and the recovery code still work with a new challenge.
      const next = (await t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password }).expect(200)).body.data
        .mfa_token;
      await t.api().post('/api/admin/login/mfa').send({ mfa_token: next, recovery_code: recoveryCodes[0] }).expect(200);
      const sessions = await t.dataSource.query('SELECT id FROM sessions WHERE user_id = ?', [admin.id]);
      expect(sessions).toHaveLength(3);
    });

    it('lets only one of two racing second steps with one token in', async () => {
      const admin = await newAdmin();
      const { secret, recoveryCodes } = await enrol(admin.session, admin.password);
      const challenge = (await t.api().post('/api/admin/login').send({ email: admin.email, password: admin.password }).expect(200)).body
        .data.mfa_token;
      await awayFromStepBoundary();
      const results = await Promise.all([
        t
          .api()
          .post('/api/admin/login/mfa')
          .send({ mfa_token: challenge, code: totpCode(secret, 1) }),
        t.api().post('/api/admin/login/mfa').send({ mfa_token: challenge, recovery_code: recoveryCodes[1] }),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual([200, 401]);
    });
  });

  describe('dates', () => {
    it.each(['2026-13-45', '2026-12-32', '2026-00-10', '2026-02-29', '2026-4-01'])(
      'refuses the impossible day %s in the download statistics with a 400 naming the field',
      async (day) => {
        const token = await t.adminToken();
        for (const field of ['from', 'to']) {
          const refused = await t.api().get(`/api/admin/stats/downloads?${field}=${day}`).set(bearer(token)).expect(400);
          expect(refused.body.errors).toEqual({ [field]: [`${field} must be a day as YYYY-MM-DD`] });
        }
      },
    );

    it('takes real days, a leap day among them', async () => {
      const answer = await t
        .api()
        .get('/api/admin/stats/downloads?from=2028-02-28&to=2028-03-01')
        .set(bearer(await t.adminToken()))
        .expect(200);
      expect(answer.body.data.downloads_per_day.map((day: { day: string }) => day.day)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    });

    it('refuses impossible date-times in log filters and license expiries, and writes nothing', async () => {
      const token = await t.adminToken();
      for (const value of ['2026-02-30T10:00:00Z', '2026-13-01', '2026-06-01T24:30:00Z']) {
        const logs = await t
          .api()
          .get(`/api/admin/logs/access?from=${encodeURIComponent(value)}`)
          .set(bearer(token))
          .expect(400);
        expect(Object.keys(logs.body.errors)).toEqual(['from']);
        const before = await licenseRows();
        const license = await t
          .api()
          .post('/api/admin/licenses')
          .set(bearer(token))
          .send({ product_name: ADMIN_PRODUCT, user_email: 'owner@portal.test', expires_at: value, max_activations: 1 })
          .expect(400);
        expect(license.body.errors.expires_at).toEqual(['expires_at must be an ISO 8601 date']);
        expect(await licenseRows()).toBe(before);
      }
    });
  });

  describe('file names', () => {
    it.each([
      ['a right-to-left override', 'streamhub\u202egpj.deb'],
      ['a left-to-right isolate', 'streamhub\u2066.deb'],
      ['a right-to-left mark', 'stream\u200fhub.deb'],
    ])('refuses %s in an uploaded name (field or file part) and stores nothing', async (_kind, name) => {
      const version = await createVersion(t, `7.${++counter}.0`);
      const token = await t.adminToken();
      const [rowsBefore, filesBefore] = [await countRows(t, 'distribution_files'), storedFiles(t)];
      const message = 'File name must not contain bidirectional text controls (such as U+202E)';
      const byField = await postFile(t, token, {
        version_id: version.id,
        os_type: 'linux',
        architecture: 'x64',
        file_name: name,
        bytes: someBytes(100),
      }).expect(400);
      expect(byField.body.errors).toEqual({ file_name: [message] });
      const byPart = await postFile(t, token, {
        version_id: version.id,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(100),
        name,
      }).expect(400);
      expect(byPart.body.errors).toEqual({ file: [message] });
      expect(await countRows(t, 'distribution_files')).toBe(rowsBefore);
      expect(storedFiles(t)).toEqual(filesBefore);
    });
  });
});
