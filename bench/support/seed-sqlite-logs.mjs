// Fills a migrated SQLite portal database with licenses and audit-trail rows, straight in SQL (a recursive
// counter), for the export benchmark on the embedded engine. Run while the portal is stopped (one writer).
// Rows look like the MariaDB seeder's: spread over a year, a mix of statuses, searchable e-mails and messages.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes.mjs';

const require = createRequire(join(ROOT, 'server/package.json'));
const Database = require('better-sqlite3');

const CHUNK = 100_000;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** `count` licenses and `audit` audit rows into the database file at `path`; `log(table, done, total)` reports progress. */
export function seedSqliteLogs(path, { licenses, audit }, log = () => undefined) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = Date.now();
  // TypeORM's UTC text: 'YYYY-MM-DD HH:MM:SS.SSS'.
  const at = (expression) => `strftime('%Y-%m-%d %H:%M:%f', (${now} - (${expression})) / 1000.0, 'unixepoch')`;
  const counter = (a, b) => `WITH RECURSIVE s(seq) AS (SELECT ${a} UNION ALL SELECT seq + 1 FROM s WHERE seq < ${b})`;
  const chunks = (total, insert, table) => {
    for (let a = 1; a <= total; a += CHUNK) {
      const b = Math.min(total, a + CHUNK - 1);
      db.exec(`${counter(a, b)} ${insert}`);
      log(table, b, total);
    }
  };
  chunks(
    licenses,
    `INSERT INTO licenses (license_key, product_name, user_id, user_email, status, is_trial, expires_at, max_activations, current_activations, created_at, updated_at)
     SELECT printf('SH-%08X-%05d-%05d-BENCH', seq, seq % 99991, seq % 77777), CASE seq % 3 WHEN 0 THEN 'StreamHub Pro' WHEN 1 THEN 'StreamHub Enterprise' ELSE 'StreamHub Basic' END,
            NULL, 'user' || (1 + seq % 100000) || '@bench.test', CASE WHEN seq % 20 = 0 THEN 'revoked' WHEN seq % 7 = 0 THEN 'expired' ELSE 'active' END,
            seq % 4 = 0, ${at(`-(1 + seq % 400) * 86400000`)}, 1 + seq % 5, 0, ${at(`seq * ${YEAR_MS} / ${licenses}`)}, ${at('0')}
     FROM s`,
    'licenses',
  );
  chunks(
    audit,
    `INSERT INTO audit_logs (level, action, message, actor_id, actor_email, target_type, target_id, ip_address, user_agent, context, created_at)
     SELECT CASE WHEN seq % 20 = 19 THEN 'error' WHEN seq % 20 >= 16 THEN 'warning' ELSE 'info' END,
            CASE seq % 5 WHEN 0 THEN 'auth.login' WHEN 1 THEN 'user.update' WHEN 2 THEN 'license.create' WHEN 3 THEN 'license.revoke' ELSE 'version.upload' END,
            CASE seq % 5 WHEN 0 THEN 'Sign in' WHEN 1 THEN 'Update user' WHEN 2 THEN 'Create license' WHEN 3 THEN 'Revoke license' ELSE 'Upload version' END || ': user' || (1 + seq % 100000) || '@bench.test',
            1, 'admin@bench.test', 'license', CAST(seq % 100000 AS TEXT),
            '10.' || (seq % 256) || '.' || ((seq / 256) % 256) || '.' || ((seq / 65536) % 256), 'Mozilla/5.0 (bench)', NULL,
            ${at(`(${audit} - seq) * ${YEAR_MS} / ${audit}`)}
     FROM s`,
    'audit_logs',
  );
  db.exec('ANALYZE');
  db.close();
}
