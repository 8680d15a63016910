import { PreparedSql } from '../src/database/prepared-sql';
import { pendingSchemaChanges } from '../src/database/schema-drift';
import { AccessLogService } from '../src/modules/access-log/access-log.service';
import { accessRows } from './support/access-rows';
import { startTestApp, TestApp } from './support/test-app';

describe(`database schema (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('has no schema change pending once the migrations have run: migrations and entities agree', async () => {
    expect(await pendingSchemaChanges(t.dataSource)).toEqual([]);
  });

  it('moves the access log into segments and back, every value kept (undone with the migrations after it, and run again)', async () => {
    const at = Date.UTC(2026, 10, 28, 9, 30);
    const tricky = ["quote ' and \\ backslash", 'emoji 🎉 and ü', 'tab\tnew\nline', null];
    await t.app.get(AccessLogService).storeRows(
      Array.from({ length: 1_234 }, (_, i) => ({
        method: i % 2 ? 'GET' : 'POST',
        route: `/api/schema-test/:id`,
        path: `/api/schema-test/${i}`,
        status: [200, 404, 500][i % 3],
        duration_ms: i,
        bytes_out: i * 10,
        user_id: i % 4 ? i : null,
        user_email: tricky[i % 4] === null ? null : `user${i}@schema.test`,
        ip_address: i % 5 ? `10.1.${i % 256}.${i % 7}` : null,
        user_agent: tricky[i % 4],
        created_at: new Date(at + i),
      })),
    );
    const before = (await accessRows(t.dataSource)).map(({ id: _id, ...row }) => row);
    expect(before.length).toBeGreaterThanOrEqual(1_234);
    // Undone with the migrations after it (each later one is undone first, as a rollback would).
    const undone = t.dataSource.migrations.length - t.dataSource.migrations.findIndex((m) => m.name === 'AccessLogSegments1765100000000');
    expect(undone).toBeLessThanOrEqual(t.dataSource.migrations.length);
    for (let i = 0; i < undone; i++) await t.dataSource.undoLastMigration({ transaction: 'each' });
    const rows: Array<Record<string, unknown>> = await t.dataSource.query('SELECT * FROM access_logs ORDER BY id');
    const sql = PreparedSql.for(t.dataSource);
    expect(
      rows.map(({ id: _id, ...row }) => ({
        ...row,
        status: Number(row.status),
        duration_ms: Number(row.duration_ms),
        bytes_out: Number(row.bytes_out),
        user_id: row.user_id === null ? null : Number(row.user_id),
        created_at: sql.readDate(row.created_at),
      })),
    ).toEqual(before);
    await t.dataSource.runMigrations({ transaction: 'each' });
    expect((await accessRows(t.dataSource)).map(({ id: _id, ...row }) => row)).toEqual(before);
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
