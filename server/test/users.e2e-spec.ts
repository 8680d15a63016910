import { UserEntity } from '../src/modules/users/user.entity';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

describe(`users administration (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  const list = (query: Record<string, string | number> = {}) => t.api().get('/api/admin/users').query(query).set(bearer(admin));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    adminId = (await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email: ADMIN.email })).id;
    const people = [
      ['Zoe', 'Adams', 'zoe@portal.test', 'client', true, true],
      ['Yuri', 'Baker', 'yuri@portal.test', 'client', true, false],
      ['Xena', 'Clark', 'xena@portal.test', 'admin', true, true],
      ['Walt', 'Dunn', 'walt@example.org', 'client', false, true],
      ['Vera', 'Evans', 'vera@example.org', 'moderator', true, false],
      ['Ugo', 'Fox', 'ugo_100%@example.org', 'client', true, true],
    ] as const;
    for (const [first_name, last_name, email, role, is_active, is_verified] of people) {
      await t
        .api()
        .post('/api/admin/users')
        .set(bearer(admin))
        .send({ first_name, last_name, email, password: 'secret-1x', role, is_active, is_verified })
        .expect(201);
    }
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('lists with totals, newest first by default', async () => {
    const response = await list().expect(200);
    expect(response.body.meta).toEqual({ total: 7, page: 1, limit: 10, pages: 1, overall_total: 7 });
    expect(response.body.data[0].email).toBe('ugo_100%@example.org');
    expect(response.body.data[0]).not.toHaveProperty('password_hash');
    expect(response.body.data[0]).not.toHaveProperty('password');
  });

  it('searches name and e-mail on the server, with LIKE wildcards taken literally', async () => {
    expect((await list({ search: 'example.org' })).body.data.map((u: UserEntity) => u.email).sort()).toEqual([
      'ugo_100%@example.org',
      'vera@example.org',
      'walt@example.org',
    ]);
    expect((await list({ search: 'zoe adams' })).body.data.map((u: UserEntity) => u.email)).toEqual(['zoe@portal.test']);
    expect((await list({ search: '100%' })).body.meta.total).toBe(1);
    expect((await list({ search: '%' })).body.meta.total).toBe(1);
    expect((await list({ search: '_' })).body.meta.total).toBe(1);
  });

  it('finds a user by a new name or e-mail at once, and no longer by the old one (the search index follows every change)', async () => {
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'renamed-before@portal.test', password: 'secret-password', first_name: 'Quentin', last_name: 'Oldname' })
      .expect(201);
    const emails = async (search: string) => (await list({ search })).body.data.map((u: UserEntity) => u.email);
    expect(await emails('entin oldn')).toEqual(['renamed-before@portal.test']);
    await t
      .api()
      .put(`/api/admin/users/${created.body.data.id}`)
      .set(bearer(admin))
      .send({ email: 'renamed-after@portal.test', last_name: 'Newname' })
      .expect(200);
    expect(await emails('oldname')).toEqual([]);
    expect(await emails('renamed-before')).toEqual([]);
    expect(await emails('quentin newname')).toEqual(['renamed-after@portal.test']);
    await t.api().delete(`/api/admin/users/${created.body.data.id}`).set(bearer(admin)).expect(200);
    expect(await emails('renamed-after')).toEqual([]);
  });

  it('searches parts of e-mails and names in any case, short terms and wildcards alike', async () => {
    const emails = async (search: string) => (await list({ search })).body.data.map((u: UserEntity) => u.email).sort();
    expect(await emails('ZOE@PORTAL')).toEqual(['zoe@portal.test']);
    expect(await emails('ri@port')).toEqual(['yuri@portal.test']);
    expect(await emails('era eva')).toEqual(['vera@example.org']);
    expect(await emails('xe')).toEqual(['xena@portal.test']);
    expect(await emails('_10')).toEqual(['ugo_100%@example.org']);
    expect(await emails('o_1')).toEqual(['ugo_100%@example.org']);
    expect(await emails('a%e')).toEqual([]);
    expect(await emails('portal.tesx')).toEqual([]);
  });

  it('searches quotes, letters beyond ASCII and characters outside the BMP like any other text', async () => {
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'tia@example.net', password: 'secret-password', first_name: 'Tia "Ti"', last_name: 'Gómez𝒢' })
      .expect(201);
    const emails = async (search: string) => (await list({ search }).expect(200)).body.data.map((u: UserEntity) => u.email);
    expect(await emails('"Ti"')).toEqual(['tia@example.net']);
    expect(await emails('a "t')).toEqual(['tia@example.net']);
    expect(await emails('"')).toEqual(['tia@example.net']);
    expect(await emails('Gómez')).toEqual(['tia@example.net']);
    // Two characters in three UTF-16 units: found as the two characters they are; three, by the index.
    expect(await emails('z𝒢')).toEqual(['tia@example.net']);
    expect(await emails('ez𝒢')).toEqual(['tia@example.net']);
    expect(await emails('"Tx"')).toEqual([]);
    expect(await emails('Tia\u0000')).toEqual([]);
    await t.api().delete(`/api/admin/users/${created.body.data.id}`).set(bearer(admin)).expect(200);
  });

  it("keeps a user's search index entries to their e-mail and name, and drops them with the user", async () => {
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'indexed@portal.test', password: 'secret-password', first_name: 'Ida', last_name: 'Index' })
      .expect(201);
    const id = created.body.data.id as number;
    // SQLite: the FTS5 row; MySQL/MariaDB: the trigram postings.
    const entries = async () => {
      const [row] = await t.dataSource.query(
        t.dataSource.options.type === 'better-sqlite3'
          ? 'SELECT COUNT(*) AS n FROM users_search WHERE rowid = ?'
          : 'SELECT COUNT(*) AS n FROM user_search_trigrams WHERE user_id = ?',
        [id],
      );
      return Number(row.n);
    };
    expect(await entries()).toBeGreaterThan(0);
    await t.api().put(`/api/admin/users/${id}`).set(bearer(admin)).send({ first_name: 'Ina' }).expect(200);
    expect((await list({ search: 'ida ind' })).body.data).toEqual([]);
    expect((await list({ search: 'ina ind' })).body.data.map((u: UserEntity) => u.id)).toEqual([id]);
    await t.api().delete(`/api/admin/users/${id}`).set(bearer(admin)).expect(200);
    expect(await entries()).toBe(0);
  });

  it('filters by status, role (moderator too) and e-mail status, keeping the overall total', async () => {
    const inactive = await list({ status: 'inactive' });
    expect(inactive.body.data.map((u: UserEntity) => u.email)).toEqual(['walt@example.org']);
    expect(inactive.body.meta).toMatchObject({ total: 1, overall_total: 7 });
    expect((await list({ role: 'moderator' })).body.data.map((u: UserEntity) => u.email)).toEqual(['vera@example.org']);
    expect((await list({ role: 'admin' })).body.meta.total).toBe(2);
    expect((await list({ email_status: 'unverified' })).body.data.map((u: UserEntity) => u.email).sort()).toEqual([
      'vera@example.org',
      'yuri@portal.test',
    ]);
    expect((await list({ role: 'client', status: 'active', email_status: 'verified' })).body.meta.total).toBe(2);
  });

  it("shows every change made here in a search's and a filter's total at once (exact totals are kept a few seconds)", async () => {
    const total = async (query: Record<string, string>) => (await list(query).expect(200)).body.meta.total;
    const search = { search: 'kept-total' };
    const unverified = { search: 'kept-total', email_status: 'unverified' };
    expect([await total(search), await total(unverified)]).toEqual([0, 0]);
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ first_name: 'Kay', last_name: 'Total', email: 'kept-total@portal.test', password: 'secret-1x' })
      .expect(201);
    const id = created.body.data.id;
    expect([await total(search), await total(unverified)]).toEqual([1, 1]);
    await t.api().post(`/api/admin/users/${id}/verify-email`).set(bearer(admin)).expect(200);
    expect([await total(search), await total(unverified)]).toEqual([1, 0]);
    await t.api().put(`/api/admin/users/${id}`).set(bearer(admin)).send({ email: 'kept-gone@portal.test' }).expect(200);
    expect(await total(search)).toBe(0);
    await t.api().delete(`/api/admin/users/${id}`).set(bearer(admin)).expect(200);
    expect(await total({ search: 'kept-gone' })).toBe(0);
  });

  it.each([
    ['name', 'asc', 'Admin'],
    ['name', 'desc', 'Zoe'],
    ['email', 'asc', 'admin@portal.test'],
    ['role', 'desc', 'Vera'],
  ])('sorts by %s %s', async (sort, order, first) => {
    const top = (await list({ sort, order })).body.data[0];
    expect([top.first_name, top.email]).toContain(first);
  });

  it('sorts every column of the Users table both ways', async () => {
    for (const sort of ['name', 'email', 'role', 'status', 'is_verified', 'last_login', 'created_at']) {
      const asc = (await list({ sort, order: 'asc', limit: 100 }).expect(200)).body.data.map((u: UserEntity) => u.id);
      const desc = (await list({ sort, order: 'desc', limit: 100 }).expect(200)).body.data.map((u: UserEntity) => u.id);
      expect(asc).toHaveLength(7);
      expect(new Set(asc)).toEqual(new Set(desc));
    }
    const byStatus = (await list({ sort: 'status', order: 'asc' })).body.data;
    expect(byStatus[0].status).toBe('inactive');
  });

  it('pages with the spec page sizes and refuses others', async () => {
    const first = await list({ limit: 5, page: 1, sort: 'email', order: 'asc' }).expect(200);
    const second = await list({ limit: 5, page: 2, sort: 'email', order: 'asc' }).expect(200);
    expect(first.body.meta).toMatchObject({ total: 7, pages: 2, page: 1, limit: 5 });
    expect(first.body.data).toHaveLength(5);
    expect(second.body.data).toHaveLength(2);
    const firstIds = first.body.data.map((u: UserEntity) => u.id);
    expect(second.body.data.every((u: UserEntity) => !firstIds.includes(u.id))).toBe(true);
    const refused = await list({ limit: 7 }).expect(400);
    expect(refused.body.message).toBe('limit must be one of 5, 10, 25, 50, 100');
  });

  it('creates with defaults: active on, verified off; password at least 6 characters and not a common one', async () => {
    const short = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'short@portal.test', password: '12345' })
      .expect(400);
    expect(short.body.message).toBe('Password must be at least 6 characters');
    const common = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'common@portal.test', password: '123456' })
      .expect(400);
    expect(common.body.errors.password).toEqual(['This password is too common. Please choose one that is harder to guess.']);
    const missing = await t.api().post('/api/admin/users').set(bearer(admin)).send({ email: 'nopass@portal.test' }).expect(400);
    expect(missing.body.errors.password).toBeDefined();
    const created = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'New@Portal.test', password: 'x7-q2-k9' })
      .expect(201);
    expect(created.body.message).toBe('User created successfully!');
    expect(created.body.data).toMatchObject({
      email: 'new@portal.test',
      is_active: true,
      is_verified: false,
      user_type: 'client',
      role: 'client',
      status: 'active',
    });
    const duplicate = await t
      .api()
      .post('/api/admin/users')
      .set(bearer(admin))
      .send({ email: 'new@portal.test', password: 'x7-q2-k9' })
      .expect(409);
    expect(duplicate.body.errors.email).toEqual(['This email is already registered.']);
  });

  it('edits a user; a blank password keeps the current one', async () => {
    const yuri = (await list({ search: 'yuri' })).body.data[0];
    const updated = await t
      .api()
      .put(`/api/admin/users/${yuri.id}`)
      .set(bearer(admin))
      .send({ first_name: 'Yuri-B', phone: '+49 30 1234', company: 'Acme', password: '' })
      .expect(200);
    expect(updated.body).toMatchObject({
      message: 'User updated successfully!',
      data: { first_name: 'Yuri-B', phone: '+49 30 1234', company: 'Acme', full_name: 'Yuri-B Baker' },
    });
    await t.api().post(`/api/admin/users/${yuri.id}/verify-email`).set(bearer(admin)).expect(200);
    await t.api().post('/api/login').send({ email: 'yuri@portal.test', password: 'secret-1x' }).expect(200);
    const common = await t.api().put(`/api/admin/users/${yuri.id}`).set(bearer(admin)).send({ password: 'qwerty123' }).expect(400);
    expect(common.body.errors.password).toEqual(['This password is too common. Please choose one that is harder to guess.']);
  });

  it('keeps a moderator a moderator when the form sends its user type unchanged', async () => {
    const vera = (await list({ search: 'vera' })).body.data[0];
    expect(vera.user_type).toBe('client');
    const updated = await t
      .api()
      .put(`/api/admin/users/${vera.id}`)
      .set(bearer(admin))
      .send({ user_type: 'client', country: 'Austria' })
      .expect(200);
    expect(updated.body.data).toMatchObject({ role: 'moderator', country: 'Austria' });
    const promoted = await t.api().put(`/api/admin/users/${vera.id}`).set(bearer(admin)).send({ user_type: 'admin' }).expect(200);
    expect(promoted.body.data.role).toBe('admin');
  });

  it('refuses to move a user onto another user’s e-mail', async () => {
    const zoe = (await list({ search: 'zoe' })).body.data[0];
    await t.api().put(`/api/admin/users/${zoe.id}`).set(bearer(admin)).send({ email: 'xena@portal.test' }).expect(409);
    expect((await t.api().get(`/api/admin/users/${zoe.id}`).set(bearer(admin))).body.data.email).toBe('zoe@portal.test');
  });

  it('verifies an e-mail, once and for good', async () => {
    const unverified = (await list({ email_status: 'unverified' })).body.data[0];
    const response = await t.api().post(`/api/admin/users/${unverified.id}/verify-email`).set(bearer(admin)).expect(200);
    expect(response.body).toMatchObject({ message: 'User email verified successfully!', data: { is_verified: true } });
    expect(response.body.data.email_verified_at).not.toBeNull();
  });

  it('toggles status with the spec messages', async () => {
    const walt = (await list({ search: 'walt' })).body.data[0];
    const on = await t.api().post(`/api/admin/users/${walt.id}/toggle-status`).set(bearer(admin)).expect(200);
    expect(on.body).toMatchObject({ message: 'User activated successfully!', data: { status: 'active' } });
    const off = await t.api().post(`/api/admin/users/${walt.id}/toggle-status`).set(bearer(admin)).expect(200);
    expect(off.body).toMatchObject({ message: 'User deactivated successfully!', data: { status: 'inactive' } });
  });

  it('an admin cannot delete, deactivate or demote themself', async () => {
    expect((await t.api().delete(`/api/admin/users/${adminId}`).set(bearer(admin)).expect(403)).body.message).toBe(
      'You cannot delete your own account.',
    );
    expect((await t.api().post(`/api/admin/users/${adminId}/toggle-status`).set(bearer(admin)).expect(403)).body.message).toBe(
      'You cannot deactivate your own account.',
    );
    await t.api().put(`/api/admin/users/${adminId}`).set(bearer(admin)).send({ is_active: false }).expect(403);
    await t.api().put(`/api/admin/users/${adminId}`).set(bearer(admin)).send({ user_type: 'client' }).expect(403);
    await t.api().get('/api/admin/users').set(bearer(admin)).expect(200);
  });

  it('deletes a user and their sessions', async () => {
    const client = await t.signUpClient();
    const response = await t.api().delete(`/api/admin/users/${client.id}`).set(bearer(admin)).expect(200);
    expect(response.body.message).toBe('User deleted successfully!');
    await t.api().get(`/api/admin/users/${client.id}`).set(bearer(admin)).expect(404);
    await t.api().get('/api/me').set(bearer(client.token)).expect(401);
    await t.api().delete(`/api/admin/users/${client.id}`).set(bearer(admin)).expect(404);
  });

  it('answers 404 for users that do not exist and 400 for ids that are not numbers', async () => {
    await t.api().put('/api/admin/users/999999').set(bearer(admin)).send({ first_name: 'x' }).expect(404);
    await t.api().post('/api/admin/users/999999/verify-email').set(bearer(admin)).expect(404);
    await t.api().get('/api/admin/users/abc').set(bearer(admin)).expect(400);
  });
});
