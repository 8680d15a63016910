import { LicenseEntity } from '../src/modules/licenses/license.entity';
import { verifyLicenseFile } from '../src/modules/licenses/license-file';
import { LicensesService } from '../src/modules/licenses/licenses.service';
import { OrderEntity } from '../src/modules/orders/order.entity';
import { ADMIN_PRODUCT, callLicenseServer, ensureVersion, inDays, issueLicense, PRODUCT, serverUid, setDate } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

const DAY = 24 * 3600 * 1000;
const KEY_FORMAT = /^SH(-[0-9A-HJKMNP-TV-Z]{5}){5}$/;

describe(`licenses (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let alice: { token: string; id: number; email: string };
  let bob: { token: string; id: number; email: string };

  const patchSetting = (key: string, value: unknown) =>
    t.api().patch('/api/admin/settings').set(bearer(admin)).send({ key, value }).expect(200);
  const requestLicense = (token: string, body: Record<string, unknown>) =>
    t
      .api()
      .post('/api/licenses')
      .set(bearer(token))
      .send({ product_name: PRODUCT, ...body });
  const myLicenses = async (token: string) =>
    (await t.api().get('/api/licenses').set(bearer(token)).expect(200)).body.data as LicenseEntity[];
  const orderCount = () => t.dataSource.getRepository(OrderEntity).count();

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    alice = await t.signUpClient();
    bob = await t.signUpClient();
    await ensureVersion(t);
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('test licenses', () => {
    it('takes duration and devices from the settings and binds the license to the signed-in user, whatever the request says', async () => {
      const response = await requestLicense(alice.token, {
        license_type: 'trial',
        duration_days: 365,
        max_activations: 50,
        user_email: bob.email,
        price: 0,
      }).expect(201);
      expect(response.body.message).toBe('Test License Created');
      const license = response.body.data.license;
      expect(license).toMatchObject({
        product_name: PRODUCT,
        is_trial: true,
        max_activations: 1,
        current_activations: 0,
        status: 'active',
      });
      expect(license.license_key).toMatch(KEY_FORMAT);
      expect(Math.abs(Date.parse(license.expires_at) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
      expect((await myLicenses(alice.token)).map((l) => l.id)).toContain(license.id);
      expect((await myLicenses(bob.token)).map((l) => l.id)).not.toContain(license.id);
      const stored = await t.dataSource.getRepository(LicenseEntity).findOneByOrFail({ id: license.id });
      expect(stored).toMatchObject({ user_id: alice.id, user_email: alice.email });
    });

    it('refuses a test license beyond test_license.max_per_user with 409', async () => {
      const response = await requestLicense(alice.token, { license_type: 'trial' }).expect(409);
      expect(response.body.message).toMatch(/limit of 1 test license/);
    });

    it('says before the click what a request would answer: the used test license, switched-off kinds, with the reason', async () => {
      const options = async (token: string) => (await t.api().get('/api/licenses/options').set(bearer(token)).expect(200)).body.data;
      const fresh = await t.signUpClient();
      expect(await options(fresh.token)).toEqual({ trial: { available: true, reason: null }, purchase: { available: true, reason: null } });
      expect((await options(alice.token)).trial).toEqual({
        available: false,
        reason: 'You have reached the limit of 1 test license per account.',
      });
      await patchSetting('features.test_license_enabled', false);
      await patchSetting('features.purchase_license_enabled', false);
      expect(await options(fresh.token)).toEqual({
        trial: { available: false, reason: 'Test licenses are currently not available.' },
        purchase: { available: false, reason: 'Purchasing licenses is currently not available.' },
      });
      await patchSetting('features.test_license_enabled', true);
      await patchSetting('features.purchase_license_enabled', true);
      await t.api().get('/api/licenses/options').expect(401);
    });

    it('follows a raised max_per_user, then refuses again', async () => {
      await patchSetting('test_license.max_per_user', 2);
      await requestLicense(alice.token, { license_type: 'trial' }).expect(201);
      await requestLicense(alice.token, { license_type: 'trial' }).expect(409);
      await patchSetting('test_license.max_per_user', 1);
    });

    it('uses changed durations and device counts from the settings', async () => {
      await patchSetting('test_license.duration_days', 30);
      await patchSetting('test_license.max_devices', 3);
      const carol = await t.signUpClient();
      const license = (await requestLicense(carol.token, { license_type: 'trial', duration_days: 1, max_activations: 1 }).expect(201)).body
        .data.license;
      expect(license.max_activations).toBe(3);
      expect(Math.abs(Date.parse(license.expires_at) - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
      await patchSetting('test_license.duration_days', 7);
      await patchSetting('test_license.max_devices', 1);
    });

    it('gives at most max_per_user test licenses to simultaneous requests', async () => {
      await patchSetting('test_license.max_per_user', 2);
      const dave = await t.signUpClient();
      const responses = await Promise.all(Array.from({ length: 8 }, () => requestLicense(dave.token, { license_type: 'trial' })));
      expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
      expect(await myLicenses(dave.token)).toHaveLength(2);
      await patchSetting('test_license.max_per_user', 1);
    });

    it('refuses test licenses with 403 while they are disabled (setting or feature flag)', async () => {
      const erin = await t.signUpClient();
      await patchSetting('test_license.enabled', false);
      expect((await requestLicense(erin.token, { license_type: 'trial' }).expect(403)).body.message).toMatch(/not available/);
      await patchSetting('test_license.enabled', true);
      await patchSetting('features.test_license_enabled', false);
      await requestLicense(erin.token, { license_type: 'trial' }).expect(403);
      await patchSetting('features.test_license_enabled', true);
      await requestLicense(erin.token, { license_type: 'trial' }).expect(201);
    });

    it('refuses a product that is not one of the versions, a missing product and an unknown license type', async () => {
      const frank = await t.signUpClient();
      for (const product_name of [
        'Other v1.0',
        'StreamHub Pro',
        'StreamHub vX',
        'StreamHub v1.0; DROP TABLE licenses',
        'StreamHub v9.9.9',
      ]) {
        const response = await requestLicense(frank.token, { license_type: 'trial', product_name }).expect(400);
        expect(response.body.errors).toHaveProperty('product_name');
        expect(response.body.message).toMatch(/^Product must be one of .*StreamHub v2\.1\.0/);
      }
      expect((await requestLicense(frank.token, { license_type: 'trial', product_name: '' }).expect(400)).body.message).toBe(
        'Please select a product',
      );
      await requestLicense(frank.token, { license_type: 'free' }).expect(400);
      expect(await myLicenses(frank.token)).toEqual([]);
    });

    it('refuses anonymous requests', async () => {
      await t.api().post('/api/licenses').send({ product_name: PRODUCT, license_type: 'trial' }).expect(401);
    });
  });

  describe('purchases', () => {
    it('charges devices × months × the price from the settings, ignoring the price the client sends', async () => {
      const response = await requestLicense(bob.token, {
        license_type: 'paid',
        max_activations: 3,
        duration_months: 2,
        price: 0.01,
        user_email: alice.email,
      }).expect(201);
      expect(response.body.message).toBe('License Purchased Successfully!');
      const { license, order } = response.body.data;
      expect(order).toMatchObject({
        devices: 3,
        months: 2,
        unit_price: 10,
        amount: 60,
        currency: 'USD',
        status: 'paid',
        payment_provider: 'sandbox',
        license_id: license.id,
      });
      expect(license).toMatchObject({ is_trial: false, max_activations: 3, status: 'active', product_name: PRODUCT });
      const expected = new Date();
      expected.setUTCMonth(expected.getUTCMonth() + 2);
      expect(Math.abs(Date.parse(license.expires_at) - expected.getTime())).toBeLessThan(60_000);
      const stored = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: order.id });
      expect(stored).toMatchObject({ amount_cents: 6000, unit_price_cents: 1000, user_id: bob.id });
      expect((await myLicenses(bob.token)).map((l) => l.id)).toContain(license.id);
    });

    it('uses the current price per device in cents, without rounding errors', async () => {
      await patchSetting('pricing.price_per_device', 19.99);
      const { order } = (
        await requestLicense(bob.token, { license_type: 'paid', max_activations: 3, duration_months: 1, price: 1 }).expect(201)
      ).body.data;
      expect(order.amount).toBe(59.97);
      expect((await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: order.id })).amount_cents).toBe(5997);
      await patchSetting('pricing.price_per_device', 10);
    });

    it('defaults to one device for one month', async () => {
      const { order, license } = (await requestLicense(bob.token, { license_type: 'paid' }).expect(201)).body.data;
      expect(order).toMatchObject({ devices: 1, months: 1, amount: 10 });
      expect(license.max_activations).toBe(1);
    });

    it.each([
      ['0 devices', { max_activations: 0 }, 'max_activations'],
      ['101 devices', { max_activations: 101 }, 'max_activations'],
      ['2.5 devices', { max_activations: 2.5 }, 'max_activations'],
      ['devices as text', { max_activations: 'many' }, 'max_activations'],
      ['0 months', { duration_months: 0 }, 'duration_months'],
      ['13 months (above max_duration_months)', { duration_months: 13 }, 'duration_months'],
    ])('refuses %s with 400 and creates no order', async (_case, fields, field) => {
      const before = await orderCount();
      const response = await requestLicense(bob.token, { license_type: 'paid', ...fields }).expect(400);
      expect(response.body.errors).toHaveProperty(field);
      expect(await orderCount()).toBe(before);
    });

    it('honours a lower pricing.max_devices', async () => {
      await patchSetting('pricing.max_devices', 5);
      await requestLicense(bob.token, { license_type: 'paid', max_activations: 6 }).expect(400);
      await requestLicense(bob.token, { license_type: 'paid', max_activations: 5 }).expect(201);
      await patchSetting('pricing.max_devices', 100);
    });

    it('refuses purchases with 403 while the feature is off', async () => {
      await patchSetting('features.purchase_license_enabled', false);
      await requestLicense(bob.token, { license_type: 'paid' }).expect(403);
      await patchSetting('features.purchase_license_enabled', true);
    });
  });

  describe('keys', () => {
    it('generates SH- keys with at least 100 random bits, every one different', async () => {
      const keys = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const response = await t.api().post('/api/admin/licenses/generate-key').set(bearer(admin)).expect(200);
        expect(response.body.success).toBe(true);
        keys.add(response.body.data.license_key);
      }
      expect(keys.size).toBe(200);
      for (const key of keys) expect(key).toMatch(KEY_FORMAT);
      // 25 characters of a 32-letter alphabet: 125 bits.
      expect(25 * Math.log2(32)).toBeGreaterThanOrEqual(100);
      const characters = new Set([...keys].join('').replace(/SH-|-/g, ''));
      expect(characters.size).toBe(32);
    });

    it('checks an admin-typed key for format and uniqueness, and normalizes it', async () => {
      const typed = await issueLicense(t, { license_key: ' sh-abcde-fghjk-mnpqr ' });
      expect(typed.license_key).toBe('SH-ABCDE-FGHJK-MNPQR');
      const duplicate = await t
        .api()
        .post('/api/admin/licenses')
        .set(bearer(admin))
        .send({ product_name: ADMIN_PRODUCT, user_email: 'x@portal.test', expires_at: inDays(10), license_key: 'SH-ABCDE-FGHJK-MNPQR' })
        .expect(409);
      expect(duplicate.body.errors).toHaveProperty('license_key');
      for (const bad of ['ABC', 'SH-', 'SH-abc def', 'SH-<script>alert(1)</script>']) {
        const response = await t
          .api()
          .post('/api/admin/licenses')
          .set(bearer(admin))
          .send({ product_name: ADMIN_PRODUCT, user_email: 'x@portal.test', expires_at: inDays(10), license_key: bad })
          .expect(400);
        expect(response.body.errors).toHaveProperty('license_key');
      }
    });
  });

  describe('license file', () => {
    let license: { id: number; license_key: string; expires_at: string; max_activations: number };
    let publicKey: string;

    beforeAll(async () => {
      license = (await requestLicense(bob.token, { license_type: 'paid', max_activations: 2 }).expect(201)).body.data.license;
      const key = await t.api().get('/api/license-server/public-key').expect(200);
      expect(key.body.data.algorithm).toBe('Ed25519');
      publicKey = key.body.data.public_key_pem;
    });

    it('downloads as license.key and verifies offline with the published public key', async () => {
      const response = await t
        .api()
        .get(`/api/licenses/${license.id}/file`)
        .set(bearer(bob.token))
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => done(null, text));
        })
        .expect(200);
      expect(response.headers['content-disposition']).toBe('attachment; filename="license.key"');
      const file = response.body as string;
      expect(file).toMatch(/^-----BEGIN STREAMHUB LICENSE-----\n/);
      const check = verifyLicenseFile(file, publicKey);
      expect(check.valid).toBe(true);
      if (!check.valid) return;
      expect(check.expired).toBe(false);
      expect(check.payload).toMatchObject({
        license_key: license.license_key,
        product: PRODUCT,
        user: bob.email,
        max_activations: 2,
        expires_at: new Date(license.expires_at).toISOString(),
        is_trial: false,
      });
      expect(Math.abs(Date.parse(check.payload.issued_at) - Date.now())).toBeLessThan(60_000);
    });

    it('fails verification when any single byte of the file changes', async () => {
      const file = (await t.api().get(`/api/licenses/${license.id}/file`).set(bearer(bob.token)).expect(200)).text;
      const bytes = Buffer.from(file, 'utf8');
      const failures: number[] = [];
      for (let i = 0; i < bytes.length; i++) {
        const changed = Buffer.from(bytes);
        changed[i] = changed[i] === 0x41 ? 0x42 : 0x41;
        if (verifyLicenseFile(changed.toString('latin1'), publicKey).valid) failures.push(i);
      }
      expect(failures).toEqual([]);
    });

    it('fails verification of a payload re-signed with another key', async () => {
      const { generateKeyPairSync } = await import('node:crypto');
      const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const file = (await t.api().get(`/api/licenses/${license.id}/file`).set(bearer(bob.token)).expect(200)).text;
      expect(verifyLicenseFile(file, other).valid).toBe(false);
    });

    it('is served to the owner and to admins only: others get 404, anonymous 401', async () => {
      await t.api().get(`/api/licenses/${license.id}/file`).set(bearer(admin)).expect(200);
      await t.api().get(`/api/licenses/${license.id}/file`).set(bearer(alice.token)).expect(404);
      await t.api().get(`/api/licenses/${license.id}/file`).expect(401);
    });
  });

  describe('isolation between clients', () => {
    it('never shows one client another client’s licenses or files, whatever id is guessed', async () => {
      const all = await t.dataSource.getRepository(LicenseEntity).find();
      const bobsIds = new Set((await myLicenses(bob.token)).map((l) => l.id));
      const maxId = Math.max(...all.map((l) => l.id));
      for (let id = 1; id <= maxId + 2; id++) {
        const status = (await t.api().get(`/api/licenses/${id}/file`).set(bearer(bob.token))).status;
        expect([id, bobsIds.has(id) ? 200 : 404]).toEqual([id, status]);
      }
      const bobSees = await myLicenses(bob.token);
      expect(bobSees.every((l) => all.find((a) => a.id === l.id)?.user_id === bob.id)).toBe(true);
    });

    it('verifies any key, but shows the license itself only to its owner', async () => {
      const alicesKey = (await myLicenses(alice.token))[0].license_key;
      const forBob = await t
        .api()
        .post('/api/licenses/verify')
        .set(bearer(bob.token))
        .send({ license_key: alicesKey.toLowerCase() })
        .expect(200);
      expect(forBob.body.data).toMatchObject({ valid: true, code: 'VALID', status: 'active', owned: false, license: null });
      expect(JSON.stringify(forBob.body)).not.toContain(alice.email);
      const forAlice = await t.api().post('/api/licenses/verify').set(bearer(alice.token)).send({ license_key: alicesKey }).expect(200);
      expect(forAlice.body.data).toMatchObject({ owned: true, license: { license_key: alicesKey } });
      const unknown = await t
        .api()
        .post('/api/licenses/verify')
        .set(bearer(bob.token))
        .send({ license_key: 'SH-00000-00000-00000-00000-00000' })
        .expect(200);
      expect(unknown.body.data).toMatchObject({ valid: false, code: 'NOT_FOUND' });
    });

    it('gives a license an admin made for an e-mail to the account that signs up with it', async () => {
      const email = 'late-signup@portal.test';
      const issued = await issueLicense(t, { user_email: email });
      const late = await t.signUpClient({ email });
      expect((await myLicenses(late.token)).map((l) => l.license_key)).toEqual([issued.license_key]);
    });
  });

  describe('License Management', () => {
    const list = (query: Record<string, string | number> = {}) =>
      t.api().get('/api/admin/licenses').query(query).set(bearer(admin)).expect(200);

    it('validates the create form: product choice, e-mail, future expiry, at least one activation', async () => {
      const valid = { product_name: ADMIN_PRODUCT, user_email: 'new@portal.test', expires_at: inDays(30) };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ product_name: 'StreamHub Ultra' }, 'product_name'],
        [{ product_name: undefined }, 'product_name'],
        [{ user_email: undefined }, 'user_email'],
        [{ user_email: 'nope' }, 'user_email'],
        [{ expires_at: undefined }, 'expires_at'],
        [{ expires_at: 'tomorrow' }, 'expires_at'],
        [{ expires_at: inDays(-1) }, 'expires_at'],
        [{ max_activations: 0 }, 'max_activations'],
      ];
      for (const [change, field] of cases) {
        const response = await t
          .api()
          .post('/api/admin/licenses')
          .set(bearer(admin))
          .send({ ...valid, ...change })
          .expect(400);
        expect([field, response.body.errors]).toEqual([field, expect.objectContaining({ [field]: expect.any(Array) })]);
      }
      for (const tier of ['Pro', 'Enterprise', 'Basic']) {
        const created = await t
          .api()
          .post('/api/admin/licenses')
          .set(bearer(admin))
          .send({ ...valid, product_name: `StreamHub ${tier}` })
          .expect(201);
        expect(created.body.data).toMatchObject({ max_activations: 1, status: 'active', current_activations: 0, is_trial: false });
        expect(created.body.data.synced_at).not.toBeNull();
      }
      const choices = await t.api().get('/api/admin/licenses/available-versions').set(bearer(admin)).expect(200);
      expect(choices.body.data.products).toEqual(['StreamHub Pro', 'StreamHub Enterprise', 'StreamHub Basic']);
    });

    it('offers every uploaded version as "{app} v{version}", latest first, and licenses a newly uploaded one', async () => {
      await ensureVersion(t, '2.2.0-beta.1');
      const choices = await t.api().get('/api/admin/licenses/available-versions').set(bearer(admin)).expect(200);
      const versions = choices.body.data.versions as Array<{ product_name: string; version: string; is_latest: boolean }>;
      expect(versions[0]).toMatchObject({ product_name: PRODUCT, version: '2.1.0', is_latest: true });
      expect(versions.map((version) => version.product_name)).toEqual([PRODUCT, 'StreamHub v2.2.0-beta.1']);
      const grace = await t.signUpClient();
      await requestLicense(grace.token, { license_type: 'trial', product_name: 'StreamHub v2.2.0-beta.1' }).expect(201);
    });

    it('treats a date without time as the end of that day', async () => {
      const day = inDays(5).slice(0, 10);
      const created = await t
        .api()
        .post('/api/admin/licenses')
        .set(bearer(admin))
        .send({ product_name: ADMIN_PRODUCT, user_email: 'day@portal.test', expires_at: day })
        .expect(201);
      expect(created.body.data.expires_at).toBe(`${day}T23:59:59.999Z`);
    });

    it('lists 25 per page by default, newest first, with search and sorting on the server', async () => {
      const first = await list();
      expect(first.body.meta).toMatchObject({ page: 1, limit: 25 });
      const total = first.body.meta.total;
      expect(total).toBeGreaterThan(10);
      const created = first.body.data.map((l: LicenseEntity) => Date.parse(String(l.created_at)));
      expect([...created].sort((a, b) => b - a)).toEqual(created);

      const byEmail = await list({ search: 'day@portal' });
      expect(byEmail.body.data.map((l: LicenseEntity) => l.user_email)).toEqual(['day@portal.test']);
      expect((await list({ search: 'enterprise' })).body.meta.total).toBeGreaterThanOrEqual(1);
      // Every product name is found, whichever comes first or last in order (each is read by its own index seek).
      const products = [...new Set(first.body.data.map((l: LicenseEntity) => l.product_name))] as string[];
      for (const product of products)
        expect((await list({ search: product.toLowerCase() })).body.data.map((l: LicenseEntity) => l.product_name)).toContain(product);
      const key = first.body.data[3].license_key;
      expect((await list({ search: key.slice(3, 12) })).body.data.map((l: LicenseEntity) => l.license_key)).toContain(key);
      expect((await list({ search: '%' })).body.meta.total).toBe(0);

      const asc = (await list({ sort: 'license_key', order: 'asc', limit: 100 })).body.data.map((l: LicenseEntity) => l.license_key);
      expect(asc).toEqual([...asc].sort());
      const byExpiry = (await list({ sort: 'expires_at', order: 'asc', limit: 100 })).body.data.map((l: LicenseEntity) =>
        Date.parse(String(l.expires_at)),
      );
      expect(byExpiry).toEqual([...byExpiry].sort((a, b) => a - b));
      const page2 = await list({ limit: 5, page: 2 });
      expect(page2.body.meta).toMatchObject({ total, page: 2, limit: 5, pages: Math.ceil(total / 5) });
      await t.api().get('/api/admin/licenses').query({ sort: 'user_id' }).set(bearer(admin)).expect(400);
    });

    it('edits, revokes (deactivating devices), activates and extends', async () => {
      const issued = await issueLicense(t, { max_activations: 3, user_email: 'ops@portal.test' });
      for (let i = 0; i < 2; i++)
        expect((await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid() })).body.data.code).toBe(
          'VALID',
        );

      const updated = await t
        .api()
        .put(`/api/admin/licenses/${issued.id}`)
        .set(bearer(admin))
        .send({ max_activations: 4, product_name: 'StreamHub Enterprise' })
        .expect(200);
      expect(updated.body.data).toMatchObject({
        max_activations: 4,
        product_name: 'StreamHub Enterprise',
        current_activations: 2,
        license_key: issued.license_key,
      });
      await t.api().put(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).send({ license_key: 'SH-CHANGED-KEY' }).expect(400);

      const revoked = await t.api().post(`/api/admin/licenses/${issued.id}/revoke`).set(bearer(admin)).expect(200);
      expect(revoked.body).toMatchObject({
        message: 'License revoked successfully',
        data: { status: 'revoked', deactivated_installations: 2, current_activations: 0 },
      });
      const devices = await t.api().get(`/api/admin/devices/license/${issued.license_key}`).set(bearer(admin)).expect(200);
      expect(
        devices.body.data.devices.map((d: { status: string; deactivated_at: string | null }) => [d.status, d.deactivated_at !== null]),
      ).toEqual([
        ['inactive', true],
        ['inactive', true],
      ]);

      const activated = await t.api().post(`/api/admin/licenses/${issued.id}/activate`).set(bearer(admin)).expect(200);
      expect(activated.body.data.status).toBe('active');

      const before = Date.parse(activated.body.data.expires_at);
      const extended = await t.api().post(`/api/admin/licenses/${issued.id}/extend`).set(bearer(admin)).expect(200);
      expect(Date.parse(extended.body.data.expires_at) - before).toBe(30 * DAY);
      const byDays = await t.api().post(`/api/admin/licenses/${issued.id}/extend`).set(bearer(admin)).send({ days: 10 }).expect(200);
      expect(Date.parse(byDays.body.data.expires_at) - before).toBe(40 * DAY);
      await t.api().post(`/api/admin/licenses/${issued.id}/extend`).set(bearer(admin)).send({ days: 10, months: 1 }).expect(400);
      await t.api().post(`/api/admin/licenses/${issued.id}/extend`).set(bearer(admin)).send({ days: 0 }).expect(400);
    });

    it('expires licenses past their date on read and by the scheduled job; extending revives them', async () => {
      const onRead = await issueLicense(t, { user_email: 'expiring@portal.test' });
      await setDate(t, 'licenses', onRead.id, 'expires_at', new Date(Date.now() - 1000));
      expect((await list({ search: 'expiring@portal.test' })).body.data[0].status).toBe('expired');
      await t.api().post(`/api/admin/licenses/${onRead.id}/activate`).set(bearer(admin)).expect(409);
      const revived = await t.api().post(`/api/admin/licenses/${onRead.id}/extend`).set(bearer(admin)).send({ months: 1 }).expect(200);
      expect(revived.body.data.status).toBe('active');
      expect(Date.parse(revived.body.data.expires_at)).toBeGreaterThan(Date.now() + 27 * DAY);

      const byJob = await issueLicense(t, { user_email: 'job@portal.test' });
      await setDate(t, 'licenses', byJob.id, 'expires_at', new Date(Date.now() - 1000));
      expect(await t.app.get(LicensesService).expireDue()).toBeGreaterThanOrEqual(1);
      expect((await t.dataSource.getRepository(LicenseEntity).findOneByOrFail({ id: byJob.id })).status).toBe('expired');
    });

    it('finds a key whose own characters start with SH when typed without its SH- prefix', async () => {
      const key = 'SH-SHQ7K-M9XJ4-TA1VC-8PZRN-B3HWE';
      await issueLicense(t, { user_email: 'sh-start@portal.test', license_key: key });
      const uid = serverUid();
      await callLicenseServer(t, 'activate', { license_key: key, server_uid: uid }).expect(200);
      const keys = async (search: string) => (await list({ search })).body.data.map((l: LicenseEntity) => l.license_key);
      expect(await keys('SHQ7K-M9XJ4')).toEqual([key]);
      expect(await keys('shq7k m9xj4 ta1vc')).toEqual([key]);
      expect(await keys('SH-SHQ7K')).toEqual([key]);
      expect(await keys('SHSHQ7KM9')).toEqual([key]);
      const devices = await t.api().get('/api/admin/devices').query({ search: 'shq7km9xj4' }).set(bearer(admin)).expect(200);
      expect(devices.body.data.map((device: { server_uid: string }) => device.server_uid)).toEqual([uid]);
    });

    it('finds a key typed in lower case, without hyphens or its SH- prefix, and e-mails by their start', async () => {
      const issued = await issueLicense(t, { user_email: 'prefix-search@portal.test' });
      const key: string = issued.license_key;
      const keys = async (search: string) => (await list({ search })).body.data.map((l: LicenseEntity) => l.license_key);
      expect(await keys(key.toLowerCase())).toEqual([key]);
      expect(await keys(key.replace(/-/g, ''))).toEqual([key]);
      expect(await keys(key.toLowerCase().replace(/-/g, '').slice(0, 12))).toContain(key);
      expect(await keys(key.slice(3).replace(/-/g, ' '))).toEqual([key]);
      const emails = async (search: string) => (await list({ search })).body.data.map((l: LicenseEntity) => l.user_email);
      expect(await emails('prefix-search@')).toEqual(['prefix-search@portal.test']);
      expect(await emails('PREFIX-SEARCH')).toEqual(['prefix-search@portal.test']);
      // A prefix, not a part: the middle of an address finds nothing.
      expect(await emails('search@portal.test')).toEqual([]);
    });

    it('shows and filters a license past its expiry as expired without writing it, until the job stores that', async () => {
      const issued = await issueLicense(t, { user_email: 'derived-status@portal.test' });
      await setDate(t, 'licenses', issued.id, 'expires_at', new Date(Date.now() - 1000));
      const listed = (await list({ search: 'derived-status@' })).body.data;
      expect(listed.map((l: LicenseEntity) => l.status)).toEqual(['expired']);
      const ids = async (status: string) => (await list({ search: 'derived-status@', status })).body.data.map((l: LicenseEntity) => l.id);
      expect(await ids('expired')).toEqual([issued.id]);
      expect(await ids('active')).toEqual([]);
      expect((await t.api().get(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).expect(200)).body.data.status).toBe('expired');
      await t.api().get('/api/admin/licenses/stats').set(bearer(admin)).expect(200);
      // Reads wrote nothing: the row still says active.
      expect((await t.dataSource.getRepository(LicenseEntity).findOneByOrFail({ id: issued.id })).status).toBe('active');
      expect(await t.app.get(LicensesService).expireDue()).toBeGreaterThanOrEqual(1);
      expect((await t.dataSource.getRepository(LicenseEntity).findOneByOrFail({ id: issued.id })).status).toBe('expired');
      expect(await ids('expired')).toEqual([issued.id]);
    });

    it('deletes a license, deactivating its devices, and says so with the spec’s fields', async () => {
      const issued = await issueLicense(t, { max_activations: 5 });
      for (let i = 0; i < 3; i++)
        await callLicenseServer(t, 'activate', { license_key: issued.license_key, server_uid: serverUid() }).expect(200);
      const response = await t.api().delete(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).expect(200);
      expect(response.body.data).toEqual({
        id: issued.id,
        license_key: issued.license_key,
        server_revocation_success: true,
        deactivated_installations: 3,
      });
      expect(response.body.message).toBe(
        'License deleted successfully from local database and revoked on license server. 3 installations deactivated.',
      );
      await t.api().get(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).expect(404);
      expect((await callLicenseServer(t, 'validate', { license_key: issued.license_key, server_uid: serverUid() })).body.data.code).toBe(
        'NOT_FOUND',
      );
      await t.api().delete(`/api/admin/licenses/${issued.id}`).set(bearer(admin)).expect(404);
    });

    it('counts licenses by status and kind', async () => {
      const stats = (await t.api().get('/api/admin/licenses/stats').set(bearer(admin)).expect(200)).body.data;
      const rows = await t.dataSource.getRepository(LicenseEntity).find();
      expect(stats.total).toBe(rows.length);
      expect(stats.active + stats.expired + stats.revoked + stats.pending).toBe(rows.length);
      expect(stats.trial).toBe(rows.filter((l) => l.is_trial).length);
      expect(stats.trial + stats.paid).toBe(rows.length);
      expect(stats.total_activations).toBe(rows.reduce((sum, l) => sum + l.current_activations, 0));
    });

    it('exports CSV with commas, quotes and leading = escaped, and JSON', async () => {
      await patchSetting('app_info.name', '=Stream "Hub", Inc');
      const product = '=Stream "Hub", Inc Pro';
      const issued = await t
        .api()
        .post('/api/admin/licenses')
        .set(bearer(admin))
        .send({ product_name: product, user_email: 'csv@portal.test', expires_at: inDays(3) })
        .expect(201);
      await patchSetting('app_info.name', 'StreamHub');

      const csv = await t.api().get('/api/admin/licenses/export').query({ format: 'csv' }).set(bearer(admin)).expect(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="licenses_\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = csv.text.split('\r\n');
      expect(lines[0]).toBe(
        'id,license_key,product_name,user_email,status,is_trial,expires_at,max_activations,current_activations,order_id,synced_at,created_at,updated_at',
      );
      const line = lines.find((l) => l.startsWith(`${issued.body.data.id},`))!;
      expect(line).toContain(`,"'=Stream ""Hub"", Inc Pro",csv@portal.test,active,false,`);
      expect(parseCsvLine(line)[2]).toBe(`'${product}`);
      expect(lines.filter((l) => l).length).toBe((await t.dataSource.getRepository(LicenseEntity).count()) + 1);

      const json = await t
        .api()
        .get('/api/admin/licenses/export')
        .query({ format: 'json', search: 'csv@portal' })
        .set(bearer(admin))
        .expect(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(json.text)).toEqual([expect.objectContaining({ product_name: product, user_email: 'csv@portal.test' })]);
    });
  });

  describe('products at many versions', () => {
    it('accepts any existing version by one lookup and names only the ten newest when refusing', async () => {
      // Runs last: it adds versions the earlier tests do not expect. 2.1.0 is the latest (set by beforeAll).
      for (let minor = 0; minor < 12; minor++) await ensureVersion(t, `1.${minor}.0`);
      const grace = await t.signUpClient();
      await requestLicense(grace.token, { license_type: 'trial', product_name: 'StreamHub v1.0.0' }).expect(201);
      const refused = await requestLicense(grace.token, { license_type: 'trial', product_name: 'StreamHub v1.0.0-X' }).expect(400);
      const named = refused.body.message.replace(/^Product must be one of /, '').split(', ');
      expect(named).toHaveLength(11);
      expect(named.slice(0, 10)).toEqual(expect.arrayContaining(['StreamHub v2.1.0']));
      expect(named[10]).toBe('…');
      // The version column compares without case on MariaDB: a product differing only in case is still refused.
      await t
        .api()
        .post('/api/admin/upload')
        .set(bearer(admin))
        .field('version', '1.0.0-rc')
        .field('release_date', '2025-06-01')
        .expect(201);
      await requestLicense(grace.token, { license_type: 'trial', product_name: 'StreamHub v1.0.0-RC' }).expect(400);
    });
  });
});

/** RFC 4180 line parser, to check the export round-trips. */
function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}
