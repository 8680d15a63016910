import { getRepositoryToken } from '@nestjs/typeorm';
import { In, ObjectLiteral, Repository } from 'typeorm';
import { EntityRows } from '../src/database/entity-rows';
import { DeviceEntity } from '../src/modules/devices/device.entity';
import { DistributionFileEntity } from '../src/modules/distribution-files/distribution-file.entity';
import { LicenseEntity } from '../src/modules/licenses/license.entity';
import { OrderEntity } from '../src/modules/orders/order.entity';
import { UserEntity } from '../src/modules/users/user.entity';
import { VersionEntity } from '../src/modules/versions/version.entity';
import { createVersion, uploadFile } from './support/distribution';
import { callLicenseServer, ensureVersion, issueLicense, PRODUCT, serverUid } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** The lists' pages load their rows through EntityRows: the same entities TypeORM's find builds, on both engines. */
describe(`Entity rows by id (${process.env.TEST_DB})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    // Rows of every kind the lists show, made the way the portal makes them (nulls, dates, flags, big numbers).
    const client = await t.signUpClient();
    await ensureVersion(t);
    const order = await t.api().post('/api/orders').set(bearer(client.token)).send({ product_name: PRODUCT }).expect(201);
    await t.api().post(`/api/orders/${order.body.data.id}/process-payment`).set(bearer(client.token)).expect(200);
    const version = await createVersion(t, '9.8.7', { changelog: 'Faster start' });
    await uploadFile(t, {
      version_id: version.id,
      os_type: 'windows',
      architecture: 'arm64',
      file_name: 'streamhub-9.8.7.exe',
      name: 'streamhub-9.8.7.exe',
    });
    await uploadFile(t, { version_id: version.id });
    const license = await issueLicense(t, { max_activations: 3 });
    for (const uid of [serverUid(), serverUid()])
      await callLicenseServer(t, 'activate', { license_key: license.license_key, server_uid: uid }).expect(200);
    await callLicenseServer(t, 'activate', { license_key: 'SH-NOT-A-KEY', server_uid: serverUid() });
  });
  afterAll(() => t?.close());

  const repository = <T extends ObjectLiteral>(entity: new () => T) => t.app.get<Repository<T>>(getRepositoryToken(entity));
  const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);

  it.each([
    ['users', UserEntity],
    ['versions', VersionEntity],
    ['licenses', LicenseEntity],
    ['orders', OrderEntity],
  ] as const)('reads %s as findBy does', async (_name, entity) => {
    const rows = repository<{ id: number }>(entity);
    const ids = (await rows.find({ select: { id: true } })).map((row) => row.id);
    expect(ids.length).toBeGreaterThan(0);
    const asked = [...ids, 999_999];
    const read = await EntityRows.of(rows).byIds(asked);
    expect(read.length).toBe(ids.length);
    expect(read.every((row) => row instanceof entity)).toBe(true);
    expect(byId(read)).toEqual(byId(await rows.findBy({ id: In(asked) })));
  });

  it.each([
    ['files with their versions', DistributionFileEntity, 'version'],
    ['devices with their licenses', DeviceEntity, 'license'],
  ] as const)('reads %s as find with the relation does', async (_name, entity, relation) => {
    const rows = repository<{ id: number }>(entity);
    const ids = (await rows.find({ select: { id: true } })).map((row) => row.id);
    expect(ids.length).toBeGreaterThan(1);
    const read = await EntityRows.of(rows).byIdsWith(ids, relation);
    expect(read.every((row) => (row as Record<string, unknown>)[relation] !== undefined)).toBe(true);
    expect(byId(read)).toEqual(byId(await rows.find({ where: { id: In(ids) }, relations: { [relation]: true } })));
  });

  it('reads nothing for no ids, and refuses a relation that is not many-to-one', async () => {
    const users = EntityRows.of(repository(UserEntity));
    expect(await users.byIds([])).toEqual([]);
    await expect(users.byIdsWith([1], 'email')).rejects.toThrow('not a many-to-one');
  });
});
