import { runSeeds } from '../../seeds/seed-runner';
import { SettingEntity } from '../src/modules/settings/setting.entity';
import { UserEntity } from '../src/modules/users/user.entity';
import { eventually } from './support/mail';
import { startPortalProcess } from './support/portal-process';
import { ADMIN, startTestApp, TestApp } from './support/test-app';

describe(`seeds (${process.env.TEST_DB})`, () => {
  describe('with ADMIN_PASSWORD', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp()));
    afterAll(() => t.close());

    const snapshot = async () =>
      JSON.stringify([
        await t.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' } }),
        await t.dataSource.getRepository(SettingEntity).find({ order: { key: 'ASC' } }),
      ]);

    it('created the admin and the default settings on start', async () => {
      const admin = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ email: ADMIN.email });
      expect(admin).toMatchObject({ role: 'admin', is_active: true, is_verified: true });
      const keys = (await t.dataSource.getRepository(SettingEntity).find()).map((row) => row.key).sort();
      expect(keys).toEqual(['app_info', 'features', 'license_server', 'pricing', 'test_license']);
    });

    it('changes nothing when run again, twice', async () => {
      const before = await snapshot();
      expect(await runSeeds(t.app, t.config)).toEqual({ adminCreated: false, generatedAdminPassword: null, settingsAdded: [] });
      expect(await runSeeds(t.app, t.config)).toEqual({ adminCreated: false, generatedAdminPassword: null, settingsAdded: [] });
      expect(await snapshot()).toBe(before);
    });

    it('leaves an operator’s settings and the admin’s changed password alone', async () => {
      const settings = t.dataSource.getRepository(SettingEntity);
      await settings.update({ key: 'pricing' }, { value: JSON.stringify({ price_per_device_cents: 2500 }) });
      await runSeeds(t.app, { ...t.config, admin: { email: ADMIN.email, password: 'another-password' } });
      expect(JSON.parse((await settings.findOneByOrFail({ key: 'pricing' })).value)).toEqual({ price_per_device_cents: 2500 });
      await t.api().post('/api/admin/login').send(ADMIN).expect(200);
    });

    it('adds only a settings group that is missing', async () => {
      await t.dataSource.getRepository(SettingEntity).delete({ key: 'features' });
      expect((await runSeeds(t.app, t.config)).settingsAdded).toEqual(['features']);
    });
  });

  describe('without ADMIN_PASSWORD', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp({ ADMIN_PASSWORD: '' })));
    afterAll(() => t.close());

    it('creates the admin with a random password that is reported once and works', async () => {
      const first = await runSeeds(t.app, t.config);
      // startTestApp already seeded once: the admin exists, so nothing new is generated.
      expect(first.generatedAdminPassword).toBeNull();
      await t.dataSource.getRepository(UserEntity).delete({ email: ADMIN.email });

      const created = await runSeeds(t.app, t.config);
      expect(created.adminCreated).toBe(true);
      expect(created.generatedAdminPassword).toMatch(/^[\w-]{16}$/);
      await t.api().post('/api/admin/login').send({ email: ADMIN.email, password: created.generatedAdminPassword }).expect(200);
      expect((await runSeeds(t.app, t.config)).generatedAdminPassword).toBeNull();
    });
  });

  it('prints a generated password in a box as the last lines of the first start, with no route-by-route lines before it', async () => {
    if (process.env.TEST_DB !== 'sqlite') return;
    const portal = await startPortalProcess({ ADMIN_PASSWORD: '' });
    try {
      const output = await eventually('the admin box', () => (portal.output().includes('Admin account created') ? portal.output() : null));
      const lines = output.trimEnd().split('\n');
      const box = lines.findIndex((line) => line.includes('Admin account created'));
      expect(lines.slice(box + 1)).toEqual([
        `    e-mail:   ${ADMIN.email}`,
        expect.stringMatching(/^ {4}password: [\w-]{16}$/),
        `  Sign in at ${portal.base}/secret-admin and change this password.`,
        '='.repeat(72),
      ]);
      expect(lines.findIndex((line) => line.includes('StreamHub portal on'))).toBeGreaterThan(-1);
      expect(lines.findIndex((line) => line.includes('StreamHub portal on'))).toBeLessThan(box);
      expect(output).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader/);
      expect(lines.length).toBeLessThan(20);
    } finally {
      portal.cleanup();
    }
  });
});
