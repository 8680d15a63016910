import { RemoteLogsService } from '../src/modules/logs/remote-logs.service';
import { createVersion } from './support/distribution';
import { inDays, issueLicense, IssuedLicense, nonce, serverUid } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** Input an attacker sends on purpose: each answer is a 4xx with the usual error body, and nothing changes. */
describe(`hostile input (${process.env.TEST_DB})`, () => {
  const SYNC_TOKEN = 'sync-token-for-hostile-input-tests-0123456789';
  let t: TestApp;
  let admin: string;
  let client: { token: string; id: number };
  let license: IssuedLicense;
  let versionId: number;

  const tables = ['users', 'licenses', 'versions', 'devices', 'remote_logs'];
  const snapshot = async () => {
    // Remote log entries are written in batches: what is held is stored first, so the snapshot is all of it.
    await t.app.get(RemoteLogsService).flush();
    const rows = await Promise.all(tables.map((table) => t.dataSource.query(`SELECT * FROM ${table} ORDER BY id`)));
    return JSON.stringify(rows);
  };

  beforeAll(async () => {
    t = await startTestApp({ LICENSE_SERVER_SYNC_TOKEN: SYNC_TOKEN });
    admin = await t.adminToken();
    client = await t.signUpClient();
    license = await issueLicense(t, { max_activations: 2 });
    versionId = (await createVersion(t, '3.0.0')).id;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  type Sent = { status: number; body: { statusCode?: number; message?: unknown; errors?: Record<string, string[]> } };
  /** Sends, expects `status` with the usual error body, and proves the stored data did not change. */
  async function refused(send: () => PromiseLike<Sent>, status = 400): Promise<Sent> {
    const before = await snapshot();
    const response = await send();
    expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { statusCode: status } });
    expect(typeof response.body.message).toBe('string');
    expect(await snapshot()).toBe(before);
    return response;
  }

  const json = (method: 'post' | 'put', path: string, body: string, token: string | null = admin) => {
    const request = t.api()[method](path).set('Content-Type', 'application/json');
    return (token ? request.set(bearer(token)) : request).send(body);
  };

  describe('JSON shape limits, before validation', () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

    it.each([
      ['POST /api/register', 'post', '/api/register', null],
      ['POST /api/admin/users', 'post', '/api/admin/users', 'admin'],
      ['PUT /api/admin/licenses/{id}', 'put', '/api/admin/licenses/ID', 'admin'],
      ['POST /api/license-server/validate', 'post', '/api/license-server/validate', null],
    ] as const)('refuses JSON nested 5,000 levels deep on %s', async (_name, method, path, who) => {
      const url = path.replace('ID', String(license.id));
      const token = who === 'admin' ? admin : null;
      const objects = await refused(() => json(method, url, `{"email":${nested(5000)}}`, token));
      expect(objects.body.message).toBe('JSON is nested too deeply (at most 32 levels)');
      await refused(() => json(method, url, `{"email":${nestedArrays(5000)}}`, token));
    });

    it('accepts nesting up to the limit (the limit is not off by one)', async () => {
      // 32 levels: the body object and 31 below it; the validator then refuses the unknown field, not the depth.
      const response = await refused(() => json('post', '/api/admin/users', `{"x":${nested(30)}}`));
      expect(response.body.message).not.toMatch(/nested/);
      const tooDeep = await refused(() => json('post', '/api/admin/users', `{"x":${nested(32)}}`));
      expect(tooDeep.body.message).toMatch(/nested too deeply/);
    });

    it('refuses a body of 60,000 unknown keys cheaply, with a small error body', async () => {
      const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])));
      const response = await refused(() => json('post', '/api/admin/users', wide));
      expect(response.body.message).toBe('Too many fields in one JSON object (at most 200)');
      expect(JSON.stringify(response.body).length).toBeLessThan(1000);
    });

    it('lists at most 20 fields in the errors of a body with many unknown fields', async () => {
      const body = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`unknown_${i}`, i]));
      const response = await refused(() => t.api().post('/api/admin/users').set(bearer(admin)).send(body));
      expect(Object.keys(response.body.errors ?? {})).toHaveLength(20);
    });

    it('refuses an array longer than 10,000 items anywhere in a body', async () => {
      const response = await refused(() =>
        json('put', '/api/license-server/sync/licenses', `{"licenses":[${'0,'.repeat(10_000)}0]}`, SYNC_TOKEN),
      );
      expect(response.body.message).toBe('Too many items in one JSON array (at most 10000)');
    });
  });

  describe('text that is not valid Unicode', () => {
    const lone = '\\ud800';

    it.each([
      [
        'register',
        'post',
        '/api/register',
        null,
        {
          first_name: 'A',
          last_name: 'B',
          email: `x${lone}@portal.test`,
          password: 'Pa55-word-long',
          password_confirmation: 'Pa55-word-long',
        },
      ],
      ['resend verification', 'post', '/api/verify-email/resend', null, { email: `${lone}@portal.test` }],
      ['admin user create', 'post', '/api/admin/users', 'admin', { email: `a${lone}b@portal.test`, password: 'Pa55-word-long' }],
      ['admin user update', 'put', '/api/admin/users/CLIENT', 'admin', { email: `${lone}x@portal.test` }],
      [
        'admin license create',
        'post',
        '/api/admin/licenses',
        'admin',
        { product_name: 'StreamHub Pro', user_email: `o${lone}@portal.test`, expires_at: 'EXPIRES' },
      ],
      [
        'license validation',
        'post',
        '/api/license-server/validate',
        null,
        { license_key: 'KEY', server_uid: 'srv-lone-surrogate-1', nonce: 'n0nce-n0nce-n0nce', hostname: `h${lone}` },
      ],
    ] as const)('refuses a lone UTF-16 surrogate in %s with 400', async (_name, method, path, who, fields) => {
      const url = path.replace('CLIENT', String(client.id));
      const body = JSON.stringify(fields)
        .replace(/\\\\ud800/g, lone)
        .replace('EXPIRES', inDays(30))
        .replace('"KEY"', JSON.stringify(license.license_key));
      const response = await refused(() => json(method, url, body, who === 'admin' ? admin : null));
      expect(response.body.message).toBe('Text must be valid Unicode (a lone UTF-16 surrogate was sent)');
    });
  });

  describe('null for fields that cannot be empty', () => {
    it.each(['user_email', 'max_activations', 'is_trial', 'product_name', 'expires_at'])(
      'PUT /api/admin/licenses/{id} refuses %s: null',
      async (field) => {
        const response = await refused(() =>
          t
            .api()
            .put(`/api/admin/licenses/${license.id}`)
            .set(bearer(admin))
            .send({ [field]: null }),
        );
        expect(response.body.errors).toHaveProperty(field);
      },
    );

    it.each(['is_stable', 'is_latest', 'sync_to_license_server', 'license_server_sync', 'version', 'release_date'])(
      'PUT /api/admin/versions/{id} refuses %s: null',
      async (field) => {
        const response = await refused(() =>
          t
            .api()
            .put(`/api/admin/versions/${versionId}`)
            .set(bearer(admin))
            .send({ [field]: null }),
        );
        expect(response.body.errors).toHaveProperty(field);
      },
    );

    it('PUT /api/admin/versions/{id} still takes null as "clear" for the changelog', async () => {
      const response = await t.api().put(`/api/admin/versions/${versionId}`).set(bearer(admin)).send({ changelog: null }).expect(200);
      expect(response.body.data.changelog).toBeNull();
    });

    it.each([
      ['licenses', '{"licenses":[[]]}'],
      ['versions', '{"versions":[[]]}'],
      ['licenses', '{"licenses":[null]}'],
      ['versions', '{"versions":["2.0.0"]}'],
      ['licenses', '{"licenses":null}'],
    ])('a sync push of %s refuses %s', async (kind, body) => {
      await refused(() => json('put', `/api/license-server/sync/${kind}`, body, SYNC_TOKEN));
    });
  });

  describe('keys that name Object.prototype members', () => {
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
      'the activation API refuses a "%s" field like any unknown field',
      async (field) => {
        for (const value of ['x', 1, null, {}, []]) {
          const body = `{"license_key":${JSON.stringify(license.license_key)},"server_uid":${JSON.stringify(serverUid())},"nonce":${JSON.stringify(nonce())},${JSON.stringify(field)}:${JSON.stringify(value)}}`;
          const response = await refused(() => json('post', '/api/license-server/activate', body, null));
          expect(response.body.errors).toHaveProperty([field]);
        }
      },
    );

    it.each(['constructor', '__proto__', 'toString'])('the validation pipe refuses a "%s" field on a DTO route', async (field) => {
      const body = `{"email":"proto@portal.test","password":"Pa55-word-long",${JSON.stringify(field)}:"x"}`;
      const response = await refused(() => json('post', '/api/admin/users', body));
      expect(response.body.message).toBe(`property ${field} should not exist`);
    });
  });

  describe('ids in paths', () => {
    it.each([' 1', '0x10', '1e3', '1.5', '+1', '-1', '01', '1 ', '9'.repeat(30), 'NaN', 'Infinity'])(
      'refuses the id %j with 400',
      async (id) => {
        const response = await refused(() =>
          t
            .api()
            .get(`/api/admin/licenses/${encodeURIComponent(id)}`)
            .set(bearer(admin)),
        );
        expect(response.body.message).toBe('id must be a positive whole number');
      },
    );

    it('answers 404 for a well-formed id that does not exist', async () => {
      await refused(() => t.api().get('/api/admin/licenses/2147483647').set(bearer(admin)), 404);
    });
  });

  describe('values of the wrong type', () => {
    it.each([true, false, '1', '30', 1.5, null, [1], { days: 1 }])(
      'POST /api/admin/licenses/{id}/extend refuses days: %j',
      async (days) => {
        const response = await refused(() => t.api().post(`/api/admin/licenses/${license.id}/extend`).set(bearer(admin)).send({ days }));
        expect(response.body.errors).toHaveProperty('days');
      },
    );

    it('POST /api/admin/licenses/{id}/extend still takes a number of days', async () => {
      const before = (await t.api().get(`/api/admin/licenses/${license.id}`).set(bearer(admin))).body.data.expires_at;
      const response = await t.api().post(`/api/admin/licenses/${license.id}/extend`).set(bearer(admin)).send({ days: 2 }).expect(200);
      expect(new Date(response.body.data.expires_at).getTime() - new Date(before).getTime()).toBe(2 * 24 * 3600 * 1000);
    });
  });

  it('POST /api/admin/versions/{id}/sync answers 404 for a version that does not exist', async () => {
    const response = await refused(() => t.api().post('/api/admin/versions/987654/sync').set(bearer(admin)), 404);
    expect(response.body.message).toBe('Version not found');
  });
});
