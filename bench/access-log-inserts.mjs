#!/usr/bin/env node
// What one access-log row costs to store, apart from any request: rows like a heartbeat's, inserted 500 at a
// time through the portal's own PreparedSql into a database migrated by the portal's migrations, on SQLite and
// (when `mariadb-admin ping` answers) MariaDB. Prints CPU per row: this process's (the portal's share) and, on
// MariaDB, the database server's (read from /proc; it runs on the same cores here). Each engine is measured with
// the indexes it has and with (SQLite) or without (MariaDB) the four search indexes (ip, e-mail, route, path), and
// MariaDB also with the rows sent as text rather than as a prepared statement and with no index but the primary
// key (the floor of one InnoDB row per request), to show where a row's cost goes. No target: it
// explains bench:validate's access-log figure (one row per heartbeat, against a heartbeat's 100-150 µs).
// Needs the built server (npm run build). BENCH_ROWS (default 100,000) rows per measurement.
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
const { PreparedSql } = dist('database/prepared-sql');
const { ACCESS_LOG_COLUMNS } = dist('modules/logs/access-log.service');

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 500;
const SEARCH_COLUMNS = ['ip_address', 'user_email', 'route', 'path'];
const SEARCH_INDEXES = SEARCH_COLUMNS.map((column) => `IDX_access_logs_${column}_created_at`);

/** A heartbeat's row, as the access log holds it (see AccessLogService.watch). */
const row = (i) => [
  'POST',
  '/api/license-server/validate',
  '/api/license-server/validate',
  200,
  2,
  612,
  null,
  null,
  `10.0.${(i >> 8) & 255}.${i & 255}`,
  'streaming-server/4.2',
  new Date(Date.UTC(2026, 10, 28) + i),
];

/** CPU µs of the MariaDB server so far (utime + stime of mariadbd), or null where it cannot be read. */
function mariadbCpu() {
  try {
    const pid = execFileSync('pidof', ['mariadbd']).toString().trim().split(' ')[0];
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return null;
  }
}

/** Inserts ROWS rows (after a warm-up batch) and returns CPU µs per row: this process's and MariaDB's. */
async function measure(sql, dataSource, prepared) {
  const engineCpu = sql.engine === 'mysql' ? mariadbCpu : () => null;
  // TRUNCATE on MariaDB: a DELETE would leave its purge to run in the server during the next measurement.
  await dataSource.query(sql.engine === 'mysql' ? 'TRUNCATE TABLE access_logs' : 'DELETE FROM access_logs');
  const insert = (rows) => {
    const statements = sql.insertStatements('access_logs', ACCESS_LOG_COLUMNS, rows);
    return sql.atomically(prepared ? statements : statements.map((statement) => ({ ...statement, prepared: false })));
  };
  await insert(Array.from({ length: BATCH }, (_, i) => row(i)));
  const cpu = process.cpuUsage();
  const server = engineCpu();
  for (let start = 0; start < ROWS; start += BATCH) await insert(Array.from({ length: BATCH }, (_, i) => row(start + i)));
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

console.log(`Access-log rows: CPU per row, ${ROWS.toLocaleString('en')} rows in INSERTs of ${BATCH}, Node ${process.version}\n`);
try {
  for (const { engine, options, drop } of engines) {
    const dataSource = await new DataSource(options).initialize();
    try {
      await dataSource.runMigrations();
      // As in the portal, whose checkpoints run in a worker thread (wal-checkpoints.ts), not on the inserting connection.
      if (engine === 'sqlite') await dataSource.query('PRAGMA wal_autocheckpoint = 0');
      const sql = PreparedSql.for(dataSource);
      const indexes = await dataSource.query(
        engine === 'sqlite'
          ? "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'index' AND tbl_name = 'access_logs' AND name LIKE 'IDX_%'"
          : "SELECT COUNT(DISTINCT index_name) AS n FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'access_logs' AND index_name <> 'PRIMARY'",
      );
      const ways =
        engine === 'sqlite'
          ? [['as stored', true]]
          : [
              ['prepared (as stored)', true],
              ['as text', false],
            ];
      const print = (label, { node, server }) =>
        console.log(
          `  ${engine.padEnd(8)} ${label.padEnd(38)} Node ${node.toFixed(2).padStart(6)} µs` +
            (server === null
              ? ''
              : `   MariaDB ${server.toFixed(2).padStart(6)} µs   together ${(node + server).toFixed(2).padStart(6)} µs`),
        );
      for (const [way, prepared] of ways) print(`${Number(indexes[0].n)} indexes, ${way}`, await measure(sql, dataSource, prepared));
      if (engine === 'sqlite') {
        // SQLite keeps two (migration AccessLogSqliteIndexes): what the four search indexes cost there.
        for (const [i, index] of SEARCH_INDEXES.entries()) {
          await dataSource.query(`CREATE INDEX ${index} ON access_logs (${SEARCH_COLUMNS[i]}, created_at)`);
        }
        print('with the 4 search indexes too', await measure(sql, dataSource, true));
      } else {
        for (const index of SEARCH_INDEXES) await dataSource.query(`DROP INDEX ${index} ON access_logs`);
        print('without the 4 search indexes', await measure(sql, dataSource, true));
        // The floor: a row in InnoDB's clustered index alone.
        for (const index of ['IDX_access_logs_created_at', 'IDX_access_logs_status_created_at']) {
          await dataSource.query(`DROP INDEX ${index} ON access_logs`);
        }
        print('without any index but the primary key', await measure(sql, dataSource, true));
      }
    } finally {
      await dataSource.destroy();
      await drop();
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
