import { PreparedSql } from '../src/database/prepared-sql';
import { WalCheckpoints } from '../src/database/wal-checkpoints';
import { startTestApp, TestApp } from './support/test-app';

/** SQLite's write-ahead log is copied into the database file by a worker thread, not by a commit on the event loop. */
describe(`WAL checkpoints (${process.env.TEST_DB})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const pragma = (sql: string) =>
    (
      t.dataSource.driver as unknown as { databaseConnection: { pragma(sql: string, o: { simple: true }): unknown } }
    ).databaseConnection.pragma(sql, { simple: true });

  it('leaves checkpoints of a SQLite file to the worker, which copies a large commit into the file', async () => {
    const checkpoints = t.app.get(WalCheckpoints);
    if (process.env.TEST_DB !== 'sqlite') {
      // MySQL and MariaDB keep their own logs.
      expect(checkpoints.checkpointNow()).toBeNull();
      return;
    }
    // By default SQLite checkpoints on the committing connection past 1,000 pages: here that is the event loop.
    expect(pragma('wal_autocheckpoint')).toBe(0);
    // One commit of well over 1,000 pages (one transaction, so the log cannot restart in between).
    const rows = Array.from({ length: 30_000 }, (_, n) => [
      'info',
      'user.update',
      `Update user: user${n}@wal.test`,
      'admin@wal.test',
      new Date(),
    ]);
    await PreparedSql.for(t.dataSource).insertMany('audit_logs', ['level', 'action', 'message', 'actor_email', 'created_at'], rows);
    const result = await checkpoints.checkpointNow()!;
    expect(result.busy).toBe(0);
    expect(result.log).toBeGreaterThan(1000);
    expect(result.checkpointed).toBe(result.log);
  });

  it('restarts the log though commits go on while it is copied, so it does not grow while the writes last', async () => {
    const checkpoints = t.app.get(WalCheckpoints);
    if (process.env.TEST_DB !== 'sqlite') return;
    const sql = PreparedSql.for(t.dataSource);
    const write = (count: number) =>
      sql.insertMany(
        'audit_logs',
        ['level', 'action', 'message', 'actor_email', 'created_at'],
        Array.from({ length: count }, (_, n) => ['info', 'user.update', `Update user: user${n}@wal.test`, 'admin@wal.test', new Date()]),
      );
    await write(30_000);
    // Small commits all the while the worker copies the large one: a passive copy then never finds the log all
    // copied, and the log would go on from where it is.
    let copying = true;
    const copied = checkpoints.checkpointNow({ restart: true })!.finally(() => (copying = false));
    let during = 0;
    while (copying) {
      await write(1);
      during++;
      await new Promise(setImmediate);
    }
    const result = await copied;
    expect(during).toBeGreaterThan(0);
    expect(result.busy).toBe(0);
    expect(result.checkpointed).toBe(result.log);
    // The next commit writes the log from its start: a few pages, not the tens of thousands before it.
    await write(1);
    expect((await checkpoints.checkpointNow())!.log).toBeLessThan(100);
  });
});
