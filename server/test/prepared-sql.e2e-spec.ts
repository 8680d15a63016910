import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PreparedSql } from '../src/database/prepared-sql';
import { createTestDatabase, TestDatabase } from './support/databases';

/**
 * How a statement failed: its message, or null when it did not fail. Not `rejects.toThrow()`: better-sqlite3 keeps
 * the SqliteError class of the first test file that loaded it in this worker, and that class is not an Error of a
 * later file's realm, so jest would report a real failure as 'did not throw'.
 */
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { message?: string }) => String(error?.message ?? error),
  );
const NULL_REFUSED = /NOT NULL constraint failed|cannot be null/;

/** PreparedSql's transactions on the engine under test (SQLite, or MariaDB with TEST_DB=mariadb). */
describe('PreparedSql transactions', () => {
  let database: TestDatabase;
  let folder: string;
  let dataSource: DataSource;
  let sql: PreparedSql;
  const count = async (table: string) => Number((await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    database = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), 'prepared-sql-'));
    dataSource = await new DataSource(
      database.url
        ? { type: 'mysql', url: database.url, timezone: 'Z', poolSize: 3 }
        : { type: 'better-sqlite3', database: join(folder, 'test.sqlite') },
    ).initialize();
    await dataSource.query('CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL)');
    await dataSource.query('CREATE TABLE totals (name VARCHAR(20) PRIMARY KEY, value INTEGER NOT NULL)');
    await dataSource.query('CREATE TABLE kept (id INTEGER PRIMARY KEY, name VARCHAR(40) NULL, flag INTEGER NULL, at DATETIME(3) NULL)');
    sql = PreparedSql.for(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM items');
    await dataSource.query('DELETE FROM totals');
    await dataSource.query('DELETE FROM kept');
  });

  it('stores every value as given, in full INSERTs (prepared on MySQL) and in the shorter last one', async () => {
    const names = [`O'Brien "quoted" \\ back\\slash`, 'ümlaut ✓ 🎧', '', null, undefined, '%_!', 'line\nbreak\ttab'];
    const rows = Array.from({ length: 1234 }, (_, i) => [
      i + 1,
      names[i % names.length] as string | null,
      i % 3 === 0 ? null : i % 3 === 1,
      i % 5 === 0 ? null : new Date(Date.UTC(2026, 10, 28, 12, 0, 0, i)),
    ]);
    const statements = sql.insertStatements('kept', ['id', 'name', 'flag', 'at'], rows);
    if (sql.engine === 'mysql')
      expect(statements.map((s) => [s.params.length / 4, !!s.prepared])).toEqual([
        [500, true],
        [500, true],
        [234, false],
      ]);
    await sql.atomically(statements);

    const stored = await dataSource.query('SELECT id, name, flag, at FROM kept ORDER BY id');
    expect(
      stored.map((row: { id: number; name: string | null; flag: number | null; at: unknown }) => [
        Number(row.id),
        row.name,
        row.flag === null ? null : Number(row.flag),
        sql.readDate(row.at)?.toISOString() ?? null,
      ]),
    ).toEqual(
      rows.map(([id, name, flag, at]) => [
        id,
        name ?? null,
        flag === null ? null : Number(flag),
        (at as Date | null)?.toISOString() ?? null,
      ]),
    );
  });

  it('inserts more rows than one INSERT holds all or nothing: a bad row near the end leaves none', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => [i + 1, i === 1100 ? null : `item ${i + 1}`]);
    expect(await failureOf(sql.insertMany('items', ['id', 'name'], rows))).toMatch(NULL_REFUSED);
    expect(await count('items')).toBe(0);

    await sql.insertMany('items', ['id', 'name'], rows.slice(0, 1100));
    expect(await count('items')).toBe(1100);
  });

  it('runs rows and the figures they add in one transaction: a failed figure leaves no row, a retry counts once', async () => {
    const upsert =
      sql.engine === 'mysql'
        ? 'INSERT INTO totals (name, value) VALUES (?, ?) ON DUPLICATE KEY UPDATE value = value + VALUES(value)'
        : 'INSERT INTO totals (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value';
    const rows = [
      [1, 'one'],
      [2, 'two'],
    ];
    const batch = (figure: number | null) => [
      ...sql.insertStatements('items', ['id', 'name'], rows),
      { sql: upsert, params: ['items', figure] },
    ];

    expect(await failureOf(sql.atomically(batch(null)))).toMatch(NULL_REFUSED);
    expect(await count('items')).toBe(0);
    expect(await count('totals')).toBe(0);

    await sql.atomically(batch(2));
    expect(await count('items')).toBe(2);
    expect(await dataSource.query('SELECT name, value FROM totals')).toEqual([{ name: 'items', value: 2 }]);
  });

  it("reads a long read's batches as `all` does; on a SQLite file through a read-only connection of its own", async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => [i + 1, `row ${i + 1}`, i % 2, new Date(Date.UTC(2026, 0, 1, 0, 0, i))]);
    await sql.insertMany('kept', ['id', 'name', 'flag', 'at'], rows);
    const batch = 'SELECT id, name, flag, at FROM kept WHERE id > ? ORDER BY id LIMIT 1000';
    const read: Array<{ id: number; name: string; flag: number; at: unknown }> = [];
    for (let after = 0; ;) {
      const found = await sql.bulk<(typeof read)[number]>(batch, [after]);
      expect(found).toEqual(await sql.all(batch, [after]));
      if (!found.length) break;
      read.push(...found);
      after = Number(found[found.length - 1].id);
    }
    expect(read.map((row) => [Number(row.id), row.name, Number(row.flag), sql.readDate(row.at)])).toEqual(rows);

    // A row the app's connection holds in a transaction still open: the bulk reader, another connection, does not see
    // it. On SQLite `all` runs on that very connection and sees it; on MySQL both take a pooled connection of their own.
    const probe = 'SELECT name FROM kept WHERE id = ?';
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query("INSERT INTO kept (id, name) VALUES (9999, 'uncommitted')");
      expect(await sql.bulk(probe, [9999])).toEqual([]);
      expect(await sql.all(probe, [9999])).toEqual(sql.engine === 'sqlite' ? [{ name: 'uncommitted' }] : []);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    // Closed (at shutdown), later bulk reads go through the app's connection.
    PreparedSql.closeBulkReader(dataSource);
    expect(await sql.bulk(probe, [2500])).toEqual([{ name: 'row 2500' }]);
  });

  it('gives its connection back to the pool after failures (more failures than the pool has connections)', async () => {
    // 600 rows: two INSERTs on MySQL, so each attempt takes a connection for its transaction; the last row repeats an id.
    const rows = Array.from({ length: 600 }, (_, i) => [i === 599 ? 1 : i + 1, `item ${i + 1}`]);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await failureOf(sql.atomically(sql.insertStatements('items', ['id', 'name'], rows)))).toMatch(
        /UNIQUE constraint failed|Duplicate entry/,
      );
    }
    await sql.atomically(
      sql.insertStatements(
        'items',
        ['id', 'name'],
        [
          [1, 'a'],
          [2, 'b'],
        ],
      ),
    );
    expect(await count('items')).toBe(2);
  });
});
