// Fills a migrated SQLite database with the same rows as seed-mariadb.mjs (same shapes, counts and spread): users,
// versions, distribution files, licenses, devices and orders, for the list benchmarks. Each chunk is one
// INSERT … SELECT over a recursive counter in one transaction, so a million licenses take seconds, not minutes.
// Logs and downloads are not seeded here (bench:logs measures them, on MariaDB).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes.mjs';

const require = createRequire(join(ROOT, 'server/package.json'));
const CHUNK = 250_000;
const DAY = 86_400;

/** `CASE expr % n WHEN 0 THEN a WHEN 1 THEN b … END`: MariaDB's ELT(1 + expr % n, …) in SQLite. */
function elt(expr, values) {
  return `CASE (${expr}) % ${values.length} ${values.map((value, i) => `WHEN ${i} THEN ${value}`).join(' ')} END`;
}

/** A datetime `seconds` (an SQL expression) before (negative: after) now, as TypeORM stores them on SQLite. */
const ago = (seconds) => `strftime('%Y-%m-%d %H:%M:%f', :now - (${seconds}) / 86400.0)`;

/** An SQL expression of 5 hex digits that looks random (Knuth's multiplicative hash of seq and a salt). */
const hex5 = (salt) => `printf('%05X', ((seq * 2654435761 + ${salt}) / 4096) % 1048576)`;

/** Opens the SQLite file the portal uses (better-sqlite3 from the server's dependencies). */
export function openSqlite(path) {
  const Database = require('better-sqlite3');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 30000');
  return db;
}

function chunked(db, total, sql, log) {
  const insert = db.prepare(`WITH RECURSIVE s(seq) AS (SELECT :from UNION ALL SELECT seq + 1 FROM s WHERE seq < :to) ${sql} FROM s`);
  for (let start = 1; start <= total; start += CHUNK) {
    const end = Math.min(total, start + CHUNK - 1);
    const now = Date.now() / 86_400_000 + 2440587.5; // julian day of now
    db.transaction(() => insert.run({ from: start, to: end, now }))();
    log?.(end, total);
  }
}

/** Seeds users, versions, files, licenses, devices and orders (those with a count above 0). */
export function seedSqlite(db, counts, log = () => undefined) {
  const c = counts;
  db.pragma('foreign_keys = OFF');
  db.pragma('synchronous = OFF');

  if (c.users > 0)
    chunked(
      db,
      c.users,
      `INSERT INTO users (email, password_hash, first_name, last_name, company, country, role, is_active, is_verified, last_login, created_at, updated_at)
       SELECT 'user' || seq || '@bench.test', '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', 'First' || seq, 'Last' || seq,
              CASE WHEN seq % 5 = 0 THEN 'Company ' || (seq % 997) END, ${elt('seq', ["'Germany'", "'France'", "'USA'", "'Japan'"])},
              CASE WHEN seq % 500 = 0 THEN 'moderator' ELSE 'client' END, seq % 10 <> 0, seq % 3 <> 0,
              ${ago(`(seq % 90) * ${DAY}`)}, ${ago(`(seq % 700) * ${DAY} + seq % 86400`)}, ${ago('0')}`,
      (done, total) => log('users', done, total),
    );

  if (c.versions > 0)
    chunked(
      db,
      c.versions,
      `INSERT INTO versions (version, release_date, changelog, is_stable, is_latest, license_server_sync, created_at, updated_at)
       SELECT (seq / 100 + 1) || '.' || (seq % 100) || '.0', substr(${ago(`(${c.versions} - seq) * ${DAY}`)}, 1, 10),
              'Changes in build ' || seq, seq % 4 <> 0, seq = ${c.versions}, 1, ${ago(`(${c.versions} - seq) * ${DAY}`)}, ${ago('0')}`,
      (done, total) => log('versions', done, total),
    );

  const perFile = Math.max(1, Math.floor((c.downloads ?? 0) / Math.max(1, c.files)));
  if (c.files > 0)
    chunked(
      db,
      c.files,
      `INSERT INTO distribution_files (version_id, os_type, architecture, file_name, storage_key, file_size, file_hash, download_count, created_at, updated_at)
       SELECT 1 + seq % ${c.versions}, ${elt('seq', ["'windows'", "'linux'", "'macos'"])}, ${elt('seq / 3', ["'x64'", "'x86'", "'arm64'"])},
              'streamhub-' || seq || ${elt('seq', ["'.exe'", "'.deb'", "'.dmg'"])}, 'bench/' || seq, 50000000 + seq, printf('%064d', seq),
              ${perFile}, ${ago(`(seq % 700) * ${DAY}`)}, ${ago('0')}`,
      (done, total) => log('distribution_files', done, total),
    );

  if (c.licenses > 0)
    chunked(
      db,
      c.licenses,
      `INSERT INTO licenses (license_key, product_name, user_id, user_email, status, is_trial, expires_at, max_activations, current_activations, created_at, updated_at)
       SELECT 'SH-' || printf('%08X', seq) || '-' || ${hex5(1)} || '-' || ${hex5(7)} || '-' || ${hex5(13)},
              ${elt('seq', ["'StreamHub Pro'", "'StreamHub Enterprise'", "'StreamHub Basic'"])},
              1 + seq % ${c.users}, 'user' || (1 + seq % ${c.users}) || '@bench.test',
              CASE WHEN seq % 20 = 0 THEN 'revoked' WHEN seq % 7 = 0 THEN 'expired' ELSE 'active' END, seq % 4 = 0,
              CASE WHEN seq % 7 = 0 THEN ${ago(`(seq % 300) * ${DAY}`)} ELSE ${ago(`-(1 + seq % 400) * ${DAY}`)} END,
              1 + seq % 5, CASE WHEN seq <= ${c.devices} THEN 1 ELSE 0 END, ${ago(`(seq % 700) * ${DAY} + seq % 86400`)}, ${ago('0')}`,
      (done, total) => log('licenses', done, total),
    );

  // As the portal stores keys since the ListIndexes migration: also without hyphens, for the key search.
  if (db.pragma('table_info(licenses)').some((column) => column.name === 'license_key_compact'))
    db.exec(`UPDATE licenses SET license_key_compact = REPLACE(license_key, '-', '') WHERE license_key_compact IS NULL`);

  const devices = Math.min(c.devices ?? 0, c.licenses ?? 0);
  if (devices > 0)
    chunked(
      db,
      devices,
      `INSERT INTO devices (license_id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, last_ip, created_at, updated_at)
       SELECT seq, 'srv-' || seq, 'Server ' || seq, 'edge-' || seq || '.example.net', 'StreamHub', '2.1.0',
              CASE WHEN seq % 6 = 0 THEN 'inactive' ELSE 'active' END, ${ago(`(seq % 300) * ${DAY}`)}, ${ago('(seq % 48) * 3600')},
              '10.' || (seq % 256) || '.' || (seq / 256 % 256) || '.' || (seq / 65536 % 256), ${ago('0')}, ${ago('0')}`,
      (done, total) => log('devices', done, total),
    );

  if (c.orders > 0)
    chunked(
      db,
      c.orders,
      `INSERT INTO orders (user_id, user_email, product_name, devices, months, unit_price_cents, amount_cents, currency, status, payment_provider,
                           payment_reference, paid_at, created_at, updated_at)
       SELECT 1 + seq % ${c.users}, 'user' || (1 + seq % ${c.users}) || '@bench.test', 'StreamHub v2.1.0', 1 + seq % 3, 12, 1000,
              (1 + seq % 3) * 12 * 1000, 'EUR', ${elt('seq', ["'paid'", "'paid'", "'paid'", "'paid'", "'paid'", "'pending'", "'failed'"])}, 'sandbox',
              CASE WHEN seq % 7 < 5 THEN 'bench-' || seq END, CASE WHEN seq % 7 < 5 THEN ${ago(`(seq % 700) * ${DAY}`)} END,
              ${ago(`(seq % 700) * ${DAY} + seq % 86400`)}, ${ago('0')}`,
      (done, total) => log('orders', done, total),
    );

  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
