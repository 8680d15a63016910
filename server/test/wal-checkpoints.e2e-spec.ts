import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PreparedSql } from '../src/database/prepared-sql';
import { SqliteWriteGate } from '../src/database/sqlite-write-gate';
import { WalCheckpoints } from '../src/database/wal-checkpoints';
import { MAIN } from './support/portal-process';
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

  it('brings the log to its start though commits go on, holding writes (not the event loop) for its last copy', async () => {
    const checkpoints = t.app.get(WalCheckpoints);
    if (process.env.TEST_DB !== 'sqlite') return;
    const sql = PreparedSql.for(t.dataSource);
    const gate = SqliteWriteGate.for(t.dataSource);
    const columns = ['level', 'action', 'message', 'actor_email', 'created_at'];
    const row = (n: number) => ['info', 'user.update', `Update user: user${n}@wal.test`, 'admin@wal.test', new Date()];
    const write = (count: number) =>
      sql.insertMany(
        'audit_logs',
        columns,
        Array.from({ length: count }, (_, n) => row(n)),
      );
    await write(30_000);
    // A commit that met the checkpointer holding the write lock would sleep in the busy handler, on the event loop;
    // with no busy timeout it fails instead, so any such meeting fails this test.
    const busyTimeout = pragma('busy_timeout');
    pragma('busy_timeout = 0');
    // The moment the checkpointer holds the gate, writes (ours and TypeORM's) and reads are sent: the writes wait for
    // the last copy, the reads are answered meanwhile. Sent from the gate's close, not from a loop that looks at the
    // gate between its turns (a short last copy can begin and end between two turns).
    const whileHeld: Array<Promise<string[]>> = [];
    const close = gate.close.bind(gate);
    const closing = jest.spyOn(gate, 'close').mockImplementation(async (waitMs?: number) => {
      const quiet = await close(waitMs);
      if (quiet) {
        const order: string[] = [];
        const done = (what: string) => () => order.push(what);
        whileHeld.push(
          Promise.all([
            write(1).then(done('write')),
            t.dataSource.query("UPDATE audit_logs SET level = 'info' WHERE id = 1").then(done('typeorm write')),
            sql.one('SELECT COUNT(*) AS n FROM audit_logs WHERE id = 1', []).then(done('read')),
            t.dataSource.query('SELECT id FROM audit_logs WHERE id = 1').then(done('typeorm read')),
          ]).then(() => order),
        );
      }
      return quiet;
    });
    try {
      // Small commits all the while the worker copies the large one: a passive copy then never finds the log all
      // copied, and the log would go on from where it is.
      // A run whose copies never catch up with the commits (a loaded machine) ends without holding the writes: it is
      // run again until one holds them, as the scheduled checkpoints would be.
      let result: Awaited<ReturnType<typeof checkpoints.checkpointNow>> = null;
      let during = 0;
      for (let run = 0; run < 10 && whileHeld.length === 0; run++) {
        let copying = true;
        const copied = checkpoints.checkpointNow({ restart: true })!.finally(() => (copying = false));
        while (copying) {
          await write(1);
          during++;
          await new Promise(setImmediate);
        }
        result = await copied;
      }
      result = result!;
      expect(during).toBeGreaterThan(0);
      expect(whileHeld.length).toBeGreaterThan(0);
      for (const order of await Promise.all(whileHeld)) expect(order).toEqual(['read', 'typeorm read', 'write', 'typeorm write']);
      expect(gate.isClosed).toBe(false);
      expect(result.busy).toBe(0);
      expect(result.checkpointed).toBe(result.log);
      // The next commit writes the log from its start: a few pages, not the tens of thousands before it.
      await write(1);
      expect((await checkpoints.checkpointNow())!.log).toBeLessThan(100);
    } finally {
      closing.mockRestore();
      pragma(`busy_timeout = ${busyTimeout}`);
    }
  });

  it('holds writes only once no transaction of the app is open, and gives up rather than wait for one long', async () => {
    if (process.env.TEST_DB !== 'sqlite') return;
    const gate = SqliteWriteGate.for(t.dataSource);
    const sql = PreparedSql.for(t.dataSource);
    await sql.run("INSERT INTO audit_logs (level, action, message, created_at) VALUES ('info', 'user.update', 'gate', ?)", [new Date()]);
    const id = Number((await sql.one<{ id: number }>("SELECT MAX(id) AS id FROM audit_logs WHERE message = 'gate'", []))!.id);
    const openTransaction = () => {
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let began!: () => void;
      const begun = new Promise<void>((resolve) => (began = resolve));
      const done = t.dataSource.transaction(async (manager) => {
        await manager.query("UPDATE audit_logs SET level = 'info' WHERE id = ?", [id]);
        began();
        await held;
        // Inside a transaction begun before the gate closed: it goes on, or the gate would wait for it for ever.
        await manager.query("UPDATE audit_logs SET level = 'warning' WHERE id = ?", [id]);
      });
      return { begun, finish, done };
    };

    // A transaction that does not end: the gate gives up and opens again.
    const long = openTransaction();
    await long.begun;
    expect(await gate.close(0)).toBe(false);
    expect(gate.isClosed).toBe(false);
    long.finish();
    await long.done;

    // One that ends: the gate is closed once it has, and later writes wait until it opens.
    const short = openTransaction();
    await short.begun;
    const closing = gate.close(60_000);
    short.finish();
    await short.done;
    expect(await closing).toBe(true);
    let written = false;
    const write = sql.run("UPDATE audit_logs SET level = 'error' WHERE id = ?", [id]).then(() => (written = true));
    const level = await sql.one<{ level: string }>('SELECT level FROM audit_logs WHERE id = ?', [id]);
    expect(level?.level).toBe('warning');
    await new Promise(setImmediate);
    expect(written).toBe(false);
    gate.open();
    await write;
    expect((await sql.one<{ level: string }>('SELECT level FROM audit_logs WHERE id = ?', [id]))?.level).toBe('error');
  });

  it('keeps the process alive until its worker has stopped, at shutdown with nothing else to wait for', async () => {
    if (process.env.TEST_DB !== 'sqlite') return;
    // A process whose only work left is the shutdown: an unreferenced worker's exit alone would not keep it alive,
    // and it would end in the middle of the shutdown, the steps after this one never run.
    const dir = mkdtempSync(join(tmpdir(), 'wal-shutdown-'));
    const script = `
      require('reflect-metadata');
      const { DataSource } = require('typeorm');
      const { WalCheckpoints } = require(${JSON.stringify(join(dirname(MAIN), 'database/wal-checkpoints.js'))});
      (async () => {
        const dataSource = new DataSource({ type: 'better-sqlite3', database: ${JSON.stringify(join(dir, 'portal.sqlite'))} });
        await dataSource.initialize();
        await dataSource.query('PRAGMA journal_mode = WAL');
        const checkpoints = new WalCheckpoints(dataSource);
        checkpoints.onApplicationBootstrap();
        await checkpoints.onApplicationShutdown();
        await dataSource.destroy();
        console.log('shut down');
      })();
    `;
    try {
      const output = execFileSync(process.execPath, ['-e', script], { cwd: dirname(MAIN), encoding: 'utf8' });
      expect(output.trim()).toBe('shut down');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
