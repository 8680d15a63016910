import { UserEntity } from '../src/modules/users/user.entity';
import { auditRows, linkToken, mailsTo, mailWithSubject } from './support/mail';
import { bearer, startTestApp, TestApp } from './support/test-app';

const WRONG_PASSWORD = 'Current password is incorrect.';
const LINK_INVALID = 'This confirmation link is invalid or has expired.';

describe(`own account: profile, password, e-mail address and sessions (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '5', THROTTLE_WINDOW_SECONDS: '600' })));
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  const users = () => t.dataSource.getRepository(UserEntity);
  const signIn = (email: string, password: string, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0') =>
    t.api().post('/api/login').set('User-Agent', userAgent).send({ email, password });

  describe('profile', () => {
    it('shows and changes names, company, phone and country', async () => {
      const client = await t.signUpClient();
      const before = await t.api().get('/api/profile').set(bearer(client.token)).expect(200);
      expect(before.body.data).toEqual({
        id: client.id,
        email: client.email,
        first_name: 'Casey',
        last_name: expect.any(String),
        company: null,
        phone: null,
        country: null,
        user_type: 'client',
        pending_email: null,
        pending_email_expires: null,
      });
      const changed = await t
        .api()
        .put('/api/profile')
        .set(bearer(client.token))
        .send({ first_name: ' Cleo ', last_name: 'Client', company: 'Stream GmbH', phone: '+49 30 1234', country: 'Germany' })
        .expect(200);
      expect(changed.body.data).toMatchObject({ first_name: 'Cleo', company: 'Stream GmbH', phone: '+49 30 1234', country: 'Germany' });
      expect((await t.api().get('/api/me').set(bearer(client.token)).expect(200)).body.data.first_name).toBe('Cleo');
      // An emptied field is none.
      const cleared = await t
        .api()
        .put('/api/profile')
        .set(bearer(client.token))
        .send({ first_name: 'Cleo', last_name: 'Client', company: '' });
      expect(cleared.body.data.company).toBeNull();
      await auditRows(t, 'account.update_profile', 2);
    });

    it.each([
      ['an empty first name', { first_name: '', last_name: 'X' }, 'This field is required'],
      [
        'a company too long',
        { first_name: 'A', last_name: 'B', company: 'c'.repeat(151) },
        'company must be shorter than or equal to 150 characters',
      ],
      ['a role it may not set', { first_name: 'A', last_name: 'B', role: 'admin' }, 'property role should not exist'],
    ])('refuses %s with a 400 and changes nothing', async (_case, body, message) => {
      const client = await t.signUpClient();
      expect((await t.api().put('/api/profile').set(bearer(client.token)).send(body).expect(400)).body.message).toBe(message);
      expect(await users().findOneByOrFail({ id: client.id })).toMatchObject({ first_name: 'Casey', role: 'client', company: null });
    });

    it('is for signed-in users only', async () => {
      await t.api().get('/api/profile').expect(401);
      await t.api().put('/api/profile').send({ first_name: 'A', last_name: 'B' }).expect(401);
    });
  });

  describe('password change', () => {
    it('refuses a wrong current password and changes nothing', async () => {
      const client = await t.signUpClient();
      const other = await signIn(client.email, client.password).expect(200);
      const refused = await t
        .api()
        .post('/api/profile/password')
        .set(bearer(client.token))
        .send({ current_password: 'not-the-password', password: 'a-new-secret-1', password_confirmation: 'a-new-secret-1' })
        .expect(400);
      expect(refused.body).toEqual({ statusCode: 400, message: WRONG_PASSWORD, errors: { current_password: [WRONG_PASSWORD] } });
      await t.api().get('/api/me').set(bearer(other.body.token)).expect(200);
      await signIn(client.email, client.password).expect(200);
      await signIn(client.email, 'a-new-secret-1').expect(401);
    });

    it('keeps the registration rules for the new password', async () => {
      const client = await t.signUpClient();
      const change = (password: string, confirmation = password) =>
        t
          .api()
          .post('/api/profile/password')
          .set(bearer(client.token))
          .send({ current_password: client.password, password, password_confirmation: confirmation });
      expect((await change('short').expect(400)).body.message).toBe('Password must be at least 8 characters');
      expect((await change('qwerty123').expect(400)).body.message).toBe(
        'This password is too common. Please choose one that is harder to guess.',
      );
      expect((await change('a-new-secret-1', 'a-new-secret-2').expect(400)).body.message).toBe('Passwords do not match');
    });

    it('signs out every other session, keeps this one, and mails a notice', async () => {
      const client = await t.signUpClient();
      const others = [await signIn(client.email, client.password), await signIn(client.email, client.password)];
      const changed = await t
        .api()
        .post('/api/profile/password')
        .set(bearer(client.token))
        .send({ current_password: client.password, password: 'a-new-secret-1', password_confirmation: 'a-new-secret-1' })
        .expect(200);
      expect(changed.body).toEqual({
        success: true,
        message: 'Password changed. Every other session has been signed out.',
        data: { ended: 2 },
      });
      for (const other of others) await t.api().get('/api/me').set(bearer(other.body.token)).expect(401);
      await t.api().get('/api/me').set(bearer(client.token)).expect(200);
      await signIn(client.email, client.password).expect(401);
      await signIn(client.email, 'a-new-secret-1').expect(200);
      expect(await mailWithSubject(t, client.email, 'Your password was changed')).toContain(
        'every other device signed in to it was signed out',
      );
      await auditRows(t, 'account.change_password');
    });

    it('stops guessing through a signed-in session after 5 wrong passwords', async () => {
      const client = await t.signUpClient();
      const attempt = (current: string) =>
        t
          .api()
          .post('/api/profile/password')
          .set(bearer(client.token))
          .send({ current_password: current, password: 'a-new-secret-1', password_confirmation: 'a-new-secret-1' });
      for (let i = 0; i < 5; i++) await attempt(`guess-${i}`).expect(400);
      const limited = await attempt(client.password).expect(429);
      expect(limited.body.message).toBe('Too many wrong passwords. Please try again in 10 minutes.');
      // The session itself is not ended by it.
      await t.api().get('/api/me').set(bearer(client.token)).expect(200);
    });
  });

  describe('e-mail change', () => {
    const request = (token: string, email: string, current_password: string) =>
      t.api().post('/api/profile/email').set(bearer(token)).send({ email, current_password });
    const confirm = (token: string) => t.api().post('/api/profile/email/confirm').send({ token });

    it('takes effect only once the new address confirms it, and then once', async () => {
      const client = await t.signUpClient();
      const next = `moved-${client.id}@portal.test`;
      const asked = await request(client.token, ` ${next.toUpperCase()} `, client.password).expect(200);
      expect(asked.body.data).toMatchObject({ email: client.email, pending_email: next, pending_email_expires: expect.any(String) });
      // Not yet: the old address still signs in, the new one does not.
      await signIn(client.email, client.password).expect(200);
      await signIn(next, client.password).expect(401);
      const notice = await mailWithSubject(t, client.email, 'A new e-mail address was requested for your account');
      expect(notice).toContain(next);
      const token = linkToken(await mailWithSubject(t, next, 'Confirm your new e-mail address'), 'confirm-email')!;
      expect((await users().findOneByOrFail({ id: client.id })).pending_email_token_hash).toMatch(/^[0-9a-f]{64}$/);

      const confirmed = await confirm(token).expect(200);
      expect(confirmed.body).toEqual({ success: true, message: 'Your new e-mail address is confirmed.', data: { email: next } });
      await signIn(next, client.password).expect(200);
      await signIn(client.email, client.password).expect(401);
      // Sessions live on, under the new address.
      expect((await t.api().get('/api/me').set(bearer(client.token)).expect(200)).body.data.email).toBe(next);
      expect(await mailWithSubject(t, client.email, 'Your e-mail address was changed')).toContain(next);
      expect((await confirm(token).expect(400)).body.message).toBe(LINK_INVALID);
      await auditRows(t, 'account.confirm_email_change');
    });

    it('refuses a wrong current password, the same address and a taken one, changing nothing', async () => {
      const client = await t.signUpClient();
      const other = await t.signUpClient();
      const wrong = await request(client.token, `new-${client.id}@portal.test`, 'not-the-password').expect(400);
      expect(wrong.body.errors).toEqual({ current_password: [WRONG_PASSWORD] });
      expect((await request(client.token, client.email, client.password).expect(400)).body.errors).toEqual({
        email: ['This is already your e-mail address.'],
      });
      const taken = await request(client.token, other.email, client.password).expect(409);
      expect(taken.body.errors).toEqual({ email: ['This email is already registered.'] });
      expect(await users().findOneByOrFail({ id: client.id })).toMatchObject({ email: client.email, pending_email: null });
      expect(mailsTo(t, other.email).filter((mail) => mail.includes('Confirm your new e-mail address'))).toEqual([]);
    });

    it('refuses an expired link, and a link whose address someone took meanwhile', async () => {
      const client = await t.signUpClient();
      await request(client.token, `late-${client.id}@portal.test`, client.password).expect(200);
      const late = linkToken(
        await mailWithSubject(t, `late-${client.id}@portal.test`, 'Confirm your new e-mail address'),
        'confirm-email',
      )!;
      await users().update({ id: client.id }, { pending_email_expires: new Date(Date.now() - 1000) });
      expect((await confirm(late).expect(400)).body.message).toBe(LINK_INVALID);
      expect((await t.api().get('/api/profile').set(bearer(client.token)).expect(200)).body.data.pending_email).toBeNull();

      const wanted = `wanted-${client.id}@portal.test`;
      await request(client.token, wanted, client.password).expect(200);
      const token = linkToken(await mailWithSubject(t, wanted, 'Confirm your new e-mail address'), 'confirm-email')!;
      await t.signUpClient({ email: wanted });
      expect((await confirm(token).expect(409)).body.errors).toEqual({ email: ['This email is already registered.'] });
      expect((await users().findOneByOrFail({ id: client.id })).email).toBe(client.email);
    });
  });

  describe('where you are signed in', () => {
    it('lists the live sessions with address and browser, this one marked', async () => {
      const client = await t.signUpClient();
      const phone = await signIn(
        client.email,
        client.password,
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1',
      ).expect(200);
      const list = await t.api().get('/api/sessions').set(bearer(phone.body.token)).expect(200);
      expect(list.body.data).toHaveLength(2);
      expect(list.body.data[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        ip: expect.stringMatching(/127\.0\.0\.1/),
        user_agent: expect.stringContaining('iPhone'),
        expires_at: expect.any(String),
        current: true,
      });
      expect(list.body.data.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
      // Nobody else's.
      const other = await t.signUpClient();
      const theirs = await t.api().get('/api/sessions').set(bearer(other.token)).expect(200);
      expect(theirs.body.data.map((session: { id: string }) => session.id)).not.toContain(list.body.data[0].id);
    });

    it("signs out one session; another user's session or a malformed id is not found or refused", async () => {
      const client = await t.signUpClient();
      const second = await signIn(client.email, client.password).expect(200);
      const sessions = (await t.api().get('/api/sessions').set(bearer(client.token)).expect(200)).body.data;
      const secondId = sessions.find((session: { current: boolean }) => !session.current).id;

      const stranger = await t.signUpClient();
      await t.api().delete(`/api/sessions/${secondId}`).set(bearer(stranger.token)).expect(404);
      await t.api().get('/api/me').set(bearer(second.body.token)).expect(200);
      expect((await t.api().delete('/api/sessions/not-a-session').set(bearer(client.token)).expect(400)).body.message).toBe(
        'Invalid session id',
      );

      await t.api().delete(`/api/sessions/${secondId}`).set(bearer(client.token)).expect(200);
      await t.api().get('/api/me').set(bearer(second.body.token)).expect(401);
      await t.api().get('/api/me').set(bearer(client.token)).expect(200);
      await t.api().delete(`/api/sessions/${secondId}`).set(bearer(client.token)).expect(404);
      const [entry] = await auditRows(t, 'session.end');
      expect(entry).toMatchObject({ actor_email: client.email });
    });

    it('signs out everywhere else', async () => {
      const client = await t.signUpClient();
      const others = [await signIn(client.email, client.password), await signIn(client.email, client.password)];
      const ended = await t.api().post('/api/sessions/end-others').set(bearer(client.token)).expect(200);
      expect(ended.body).toEqual({ success: true, message: 'Signed out everywhere else.', data: { ended: 2 } });
      for (const other of others) await t.api().get('/api/me').set(bearer(other.body.token)).expect(401);
      const left = await t.api().get('/api/sessions').set(bearer(client.token)).expect(200);
      expect(left.body.data).toHaveLength(1);
      expect(left.body.data[0].current).toBe(true);
    });
  });
});
