import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PreparedSql } from '../src/database/prepared-sql';
import { AccessLogRow, AccessLogService } from '../src/modules/access-log/access-log.service';
import { accessRows } from './support/access-rows';
import { startTestApp, TestApp } from './support/test-app';
import type { DataSource } from 'typeorm';

/** The SQL TypeORM would run to make the database match the entities: empty when migrations and entities agree. */
async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const sqlInMemory = await dataSource.driver.createSchemaBuilder().log();
  return sqlInMemory.upQueries.map((query) => query.query);
}

/** Segments as the access log's segment store wrote them (see the test that reads them). */
const { segments } = JSON.parse(readFileSync(join(__dirname, 'fixtures/access-log-segments.json'), 'utf8')) as {
  segments: Array<{ first_at: string; last_at: string; row_count: number; errors: number; warnings: number; body: string }>;
};

describe(`database schema (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('has no schema change pending once the migrations have run: migrations and entities agree', async () => {
    expect(await pendingSchemaChanges(t.dataSource)).toEqual([]);
  });

  /** Undoes the migrations from `name` on, the last first (as a rollback would). */
  const undoFrom = async (name: string) => {
    const undone = t.dataSource.migrations.length - t.dataSource.migrations.findIndex((m) => m.name === name);
    expect(undone).toBeLessThanOrEqual(t.dataSource.migrations.length);
    for (let i = 0; i < undone; i++) await t.dataSource.undoLastMigration({ transaction: 'each' });
  };
  const withoutIds = (rows: AccessLogRow[]) => rows.map(({ id: _id, ...row }) => row);

  it('moves the rows the segment store wrote into access_logs, every value kept, in the order stored', async () => {
    // The store's own segments (test/fixtures/access-log-segments.json): rows 0-149 stored in one batch, 150-399 in
    // another, which its 64,000 bytes split in two.
    const at = Date.UTC(2026, 10, 28, 9, 30);
    const tricky = ["quote ' and \\ backslash", 'emoji 🎉 and ü', 'tab\tnew\nline', null];
    const segmentRow = (i: number) => ({
      method: i % 2 ? 'GET' : 'POST',
      route: '/api/schema-test/:id',
      path: `/api/schema-test/${i}`,
      status: [200, 404, 500][i % 3],
      duration_ms: i,
      bytes_out: i * 10,
      user_id: i % 4 ? i : null,
      user_email: i % 4 ? `user${i}@schema.test` : null,
      ip_address: i % 5 ? `10.1.${i % 256}.${i % 7}` : null,
      user_agent: i % 5 === 1 ? `${i} ${'ü'.repeat(480)}` : tricky[i % 4],
      created_at: new Date(at + i * 37),
    });
    await t.app.get(AccessLogService).flush();
    await undoFrom('AccessLogTable1765400000000');
    const sql = PreparedSql.for(t.dataSource);
    await t.dataSource.query('DELETE FROM access_log_terms');
    await t.dataSource.query('DELETE FROM access_log_segments');
    for (const segment of segments) {
      await t.dataSource.query(
        'INSERT INTO access_log_segments (first_at, last_at, row_count, errors, warnings, body) VALUES (?, ?, ?, ?, ?, ?)',
        [
          sql.date(new Date(segment.first_at)),
          sql.date(new Date(segment.last_at)),
          segment.row_count,
          segment.errors,
          segment.warnings,
          segment.body,
        ],
      );
    }
    await t.dataSource.runMigrations({ transaction: 'each' });
    expect(withoutIds(await accessRows(t.dataSource))).toEqual(Array.from({ length: 400 }, (_, i) => segmentRow(i)));
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
    await t.app.get(AccessLogService).flush();
    const before = withoutIds(await accessRows(t.dataSource));
    expect(before.length).toBeGreaterThanOrEqual(1_234);
    // Out of the table: a segment and its terms per row.
    await undoFrom('AccessLogTable1765400000000');
    const count = async (table: string) => Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
    expect(await count('access_log_segments')).toBe(before.length);
    expect(await count('access_log_terms')).toBeGreaterThan(before.length * 2);
    // Back in the table as it was before segments, then through both migrations again.
    await undoFrom('AccessLogSegments1765100000000');
    expect(withoutIds(await accessRows(t.dataSource))).toEqual(before);
    await t.dataSource.runMigrations({ transaction: 'each' });
    expect(withoutIds(await accessRows(t.dataSource))).toEqual(before);
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
