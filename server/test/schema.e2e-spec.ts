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

  it("keeps the access log's search indexes where its searches read them: on MySQL/MariaDB, not on SQLite", async () => {
    const indexes: Array<{ name: string }> =
      process.env.TEST_DB === 'sqlite'
        ? await t.dataSource.query("SELECT name FROM pragma_index_list('access_logs')")
        : await t.dataSource.query(
            "SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'access_logs' AND INDEX_NAME <> 'PRIMARY'",
          );
    const always = ['IDX_access_logs_created_at', 'IDX_access_logs_status_created_at'];
    const searches = ['ip_address', 'user_email', 'route', 'path'].map((column) => `IDX_access_logs_${column}_created_at`);
    expect(indexes.map(({ name }) => name).sort()).toEqual((process.env.TEST_DB === 'sqlite' ? always : [...always, ...searches]).sort());
  });
});
