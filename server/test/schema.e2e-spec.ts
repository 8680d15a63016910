import { pendingSchemaChanges } from '../src/database/schema-drift';
import { startTestApp, TestApp } from './support/test-app';

describe(`database schema (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('has no schema change pending once the migrations have run: migrations and entities agree', async () => {
    expect(await pendingSchemaChanges(t.dataSource)).toEqual([]);
  });

  it('reverts every migration and applies them again cleanly', async () => {
    const applied = t.dataSource.migrations.length;
    for (let i = 0; i < applied; i++) await t.dataSource.undoLastMigration({ transaction: 'each' });
    expect(await t.dataSource.showMigrations()).toBe(true);
    await t.dataSource.runMigrations({ transaction: 'each' });
    expect(await t.dataSource.showMigrations()).toBe(false);
    expect(await pendingSchemaChanges(t.dataSource)).toEqual([]);
  });
});
