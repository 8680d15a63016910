import { PreparedSql } from '../src/database/prepared-sql';
import { pendingSchemaChanges } from '../src/database/schema-drift';
import { startTestApp, TestApp } from './support/test-app';

describe(`database schema (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('has no schema change pending once the migrations have run: migrations and entities agree', async () => {
    expect(await pendingSchemaChanges(t.dataSource)).toEqual([]);
  });

  it('reads the first row for each of many parameter lists in one go, in their order (more than one statement holds)', async () => {
    const sql = PreparedSql.for(t.dataSource);
    const ids = Array.from({ length: 70 }, (_, i) => (i % 7 === 3 ? -i : (i % 3) + 1));
    const rows = await sql.firstRowEach<{ n: number }>(
      'SELECT id AS n FROM users WHERE id = ?',
      ids.map((id) => [id]),
    );
    const users = (await t.dataSource.query('SELECT id FROM users')).map((row: { id: number }) => Number(row.id));
    expect(rows.map((row) => (row ? Number(row.n) : null))).toEqual(ids.map((id) => (users.includes(id) ? id : null)));
    expect(rows.filter(Boolean).length).toBeGreaterThan(0);
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
