#!/usr/bin/env node
// What one access-log row costs to store, apart from any request: rows like a heartbeat's, stored in batches of the
// portal's writer (500, BENCH_BATCH) through the portal's own AccessLogRepository (multi-row INSERTs, prepared on
// MariaDB) into a database migrated by the portal's migrations, on SQLite and (when `mariadb-admin ping` answers)
// MariaDB. Prints CPU per row: this process's (the portal's share) and, on MariaDB, the database server's (read from
// /proc; it runs on the same cores here). Each row goes into the table and its indexes (two on SQLite, six on
// MariaDB), so each is measured twice: with one client address for the whole batch (a load generator, as in
// bench:validate, or a few busy servers) and with a distinct address on every row (many servers).
// No target: it explains bench:validate's access-log figure (one row per heartbeat, against a heartbeat's
// 100-150 µs). Needs the built server (npm run build). BENCH_ROWS (default 100,000) rows per measurement.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throwawayMariadb } from './support/mariadb.mjs';
import { requireBuiltServer, ROOT } from './support/processes.mjs';

requireBuiltServer();
const require = createRequire(join(ROOT, 'server/package.json'));
const dist = (path) => require(join(ROOT, 'server/dist/server/src', path));
const { DataSource } = require('typeorm');
const { dataSourceOptions } = dist('database/data-source-options');
const { AccessLogRepository } = dist('modules/access-log/access-log.repository');

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);

/** A heartbeat's row, as the access log holds it (see AccessLogService.watch): from one address, or one per row. */
const row = (i, distinct) => ({
  method: 'POST',
  route: '/api/license-server/validate',
  path: '/api/license-server/validate',
  status: 200,
  duration_ms: 2,
  bytes_out: 612,
  user_id: null,
  user_email: null,
  ip_address: distinct ? `10.0.${(i >> 8) & 255}.${i & 255}` : '127.0.0.1',
  user_agent: 'streaming-server/4.2',
  created_at: new Date(Date.UTC(2026, 10, 28) + i),
});

/** The MariaDB server's process id, found once (a child process inside a measurement would count as its CPU). */
let mariadbPid;
/** CPU µs of the MariaDB server so far (utime + stime of mariadbd), or null where it cannot be read. */
function mariadbCpu() {
  try {
    mariadbPid ??= execFileSync('pidof', ['mariadbd']).toString().trim().split(' ')[0];
    const fields = readFileSync(`/proc/${mariadbPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return null;
  }
}

/** Stores ROWS rows (after a warm-up batch) and returns CPU µs per row: this process's and MariaDB's. */
async function measure(dataSource, engine, distinct) {
  const engineCpu = engine === 'mariadb' ? mariadbCpu : () => null;
  const repository = new AccessLogRepository(dataSource);
  await repository.clear();
  const insert = (start) => repository.insert(Array.from({ length: BATCH }, (_, i) => row(start + i, distinct)));
  await insert(0);
  engineCpu();
  const cpu = process.cpuUsage();
  const server = engineCpu();
  for (let start = 0; start < ROWS; start += BATCH) await insert(start);
  const used = process.cpuUsage(cpu);
  const serverUsed = server === null ? null : engineCpu() - server;
  return { node: (used.user + used.system) / ROWS, server: serverUsed === null ? null : serverUsed / ROWS };
}

async function mariadb() {
  const database = await throwawayMariadb();
  if (!database) return null;
  return { options: dataSourceOptions({ type: 'mysql', flavor: 'mariadb', url: database.url, poolSize: 4 }), drop: database.drop };
}

const folder = mkdtempSync(join(tmpdir(), 'access-log-inserts-'));
const engines = [
  { engine: 'sqlite', options: dataSourceOptions({ type: 'sqlite', path: join(folder, 'portal.sqlite') }), drop: async () => undefined },
];
const maria = await mariadb();
if (maria) engines.push({ engine: 'mariadb', ...maria });

console.log(`Access-log rows: CPU per row, ${ROWS.toLocaleString('en')} rows stored ${BATCH} at a time, Node ${process.version}\n`);
try {
  for (const { engine, options, drop } of engines) {
    const dataSource = await new DataSource(options).initialize();
    try {
      await dataSource.runMigrations();
      // As in the portal, whose checkpoints run in a worker thread (wal-checkpoints.ts), not on the inserting connection.
      if (engine === 'sqlite') await dataSource.query('PRAGMA wal_autocheckpoint = 0');
      const print = (label, { node, server }) =>
        console.log(
          `  ${engine.padEnd(8)} ${label.padEnd(34)} Node ${node.toFixed(2).padStart(6)} µs` +
            (server === null
              ? ''
              : `   MariaDB ${server.toFixed(2).padStart(6)} µs   together ${(node + server).toFixed(2).padStart(6)} µs`),
        );
      print('one address per batch', await measure(dataSource, engine, false));
      print('a distinct address per row', await measure(dataSource, engine, true));
    } finally {
      await dataSource.destroy();
      await drop();
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
