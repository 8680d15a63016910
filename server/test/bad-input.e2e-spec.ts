import { API_SECURITY_HEADERS } from '../src/common/security-headers';
import { UserEntity } from '../src/modules/users/user.entity';
import { bearer, startTestApp, TestApp } from './support/test-app';

describe(`bad input (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    await t.signUpClient();
    const repository = t.dataSource.getRepository(UserEntity);
    snapshot = async () => JSON.stringify(await repository.find({ order: { id: 'ASC' } }));
  });
  afterAll(async () => {
    expect(t.statuses.length).toBeGreaterThan(20);
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  async function expectUnchanged(
    send: () => Promise<{ status: number; body: { message?: unknown; statusCode?: number; errors?: Record<string, unknown> } }>,
    status: number,
  ) {
    const before = await snapshot();
    const response = await send();
    expect(response.status).toBe(status);
    expect(typeof response.body.message).toBe('string');
    expect(response.body.statusCode).toBe(status);
    expect(await snapshot()).toBe(before);
    return response;
  }

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await expectUnchanged(
      () =>
        t.api().post('/api/admin/users').set(bearer(admin)).set('Content-Type', 'application/json').send('{"email": "x@y.z", "password":'),
      400,
    );
    expect(response.body.message).toBe('Malformed JSON in request body');
  });

  it('answers a 10 MB body with 413', async () => {
    const huge = JSON.stringify({ email: 'big@portal.test', password: 'secret-1x', first_name: 'x'.repeat(10 * 1024 * 1024) });
    const response = await expectUnchanged(
      () => t.api().post('/api/admin/users').set(bearer(admin)).set('Content-Type', 'application/json').send(huge),
      413,
    );
    expect(response.body.message).toBe('Request body too large');
  });

  it.each([
    ['a number for the e-mail', { email: 12345, password: 'secret-1x' }],
    ['an object for the password', { email: 'typed@portal.test', password: { $gt: '' } }],
    ['an array for the first name', { email: 'typed@portal.test', password: 'secret-1x', first_name: ['a'] }],
    ['a string for a boolean', { email: 'typed@portal.test', password: 'secret-1x', is_active: 'yes' }],
    ['an unknown role', { email: 'typed@portal.test', password: 'secret-1x', user_type: 'root' }],
    ['an over-long name', { email: 'typed@portal.test', password: 'secret-1x', first_name: 'x'.repeat(101) }],
  ])('refuses wrong types: %s', async (_case, body) => {
    await expectUnchanged(() => t.api().post('/api/admin/users').set(bearer(admin)).send(body), 400);
  });

  it('refuses unknown fields instead of silently dropping them', async () => {
    const response = await expectUnchanged(
      () =>
        t
          .api()
          .post('/api/admin/users')
          .set(bearer(admin))
          .send({ email: 'extra@portal.test', password: 'secret-1x', password_hash: 'x', is_admin: true }),
      400,
    );
    expect(response.body.errors).toHaveProperty('password_hash');
    expect(response.body.errors).toHaveProperty('is_admin');
  });

  it('refuses a registration that tries to choose its own role', async () => {
    await expectUnchanged(
      () =>
        t.api().post('/api/register').send({
          first_name: 'M',
          last_name: 'M',
          email: 'mallory@portal.test',
          password: 'password-1',
          password_confirmation: 'password-1',
          role: 'admin',
        }),
      400,
    );
  });

  it.each(["' OR 1=1 --", "'; DROP TABLE users; --", '" OR ""="', '\\', '%_%'])(
    'treats SQL-looking search text as text: %s',
    async (search) => {
      const before = await snapshot();
      const response = await t.api().get('/api/admin/users').query({ search }).set(bearer(admin)).expect(200);
      expect(response.body.meta.total).toBe(0);
      expect(await snapshot()).toBe(before);
    },
  );

  it.each([
    ['page=0', { page: 0 }],
    ['page=-1', { page: -1 }],
    ['page=abc', { page: 'abc' }],
    ['sort by a column that does not exist', { sort: 'password_hash' }],
    ['order sideways', { order: 'sideways' }],
    ['status=deleted', { status: 'deleted' }],
    ['a 201-character search', { search: 'x'.repeat(201) }],
    ['an unknown query parameter', { admin: 'true' }],
  ])('refuses a bad list query: %s', async (_case, query) => {
    const response = await t.api().get('/api/admin/users').query(query).set(bearer(admin)).expect(400);
    expect(typeof response.body.message).toBe('string');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.api().get('/api/does-not-exist').set(bearer(admin)).expect(404);
    expect(response.body.statusCode).toBe(404);
  });

  it('sets the API security headers on API answers, and the page headers on Swagger UI', async () => {
    for (const response of [await t.api().get('/api/health').expect(200), await t.api().get('/api/does-not-exist').expect(404)]) {
      for (const [name, value] of API_SECURITY_HEADERS) expect(response.headers[name.toLowerCase()]).toBe(value);
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
    const docs = await t.api().get('/api/docs/').expect(200);
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
