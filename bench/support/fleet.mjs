// The update call's setting for bench:validate: RELEASES published releases with a Linux x64 build each, and a fleet
// of devices (BENCH_FLEET_DEVICES, default 1,000,000) on the bench's licenses, written straight into the portal's
// database as seed-sqlite.mjs and seed-mariadb.mjs do. The licenses get an owner (the bench admin): the update API
// signs its links for an account.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './processes.mjs';
import { openSqlite } from './seed-sqlite.mjs';

const require = createRequire(join(ROOT, 'server/package.json'));
const { versionOrder } = require(join(ROOT, 'server/dist/server/src/modules/versions/version-order.js'));

export const RELEASES = 200;
export const FLEET_DEVICES = Number(process.env.BENCH_FLEET_DEVICES ?? 1_000_000);
/** The newest release: what a server on the oldest is offered. */
export const NEWEST = `3.${RELEASES - 1}.0`;
export const OLDEST = '3.0.0';
const CHUNK = 100_000;

/** A datetime as both engines take it (TypeORM's format on SQLite; MariaDB's DATETIME(3) reads it too). */
const stamp = (date) => date.toISOString().replace('T', ' ').replace('Z', '');

function releaseRows() {
  const now = Date.now();
  return Array.from({ length: RELEASES }, (_, i) => {
    const version = `3.${i}.0`;
    const published = stamp(new Date(now - (RELEASES - i) * 60_000));
    return {
      version,
      order: versionOrder(version),
      published,
      file: `streamhub-${version}-linux-x64.tar.gz`,
      hash: createHash('sha256').update(version).digest('hex'),
    };
  });
}

const VERSION_SQL =
  'INSERT INTO versions (version, release_date, channel, state, version_order, published_at, is_stable, is_latest, license_server_sync, created_at, updated_at) ' +
  "VALUES (?, '2026-01-01', 'stable', 'published', ?, ?, 1, 0, 0, ?, ?)";
const FILE_SQL =
  'INSERT INTO distribution_files (version_id, version_number, os_type, architecture, file_name, storage_key, file_size, file_hash, created_at, updated_at) ' +
  "VALUES (?, ?, 'linux', 'x64', ?, ?, 1000, ?, ?, ?)";
const DEVICE_COLUMNS =
  'INSERT INTO devices (license_id, server_uid, hostname, product, version, os, arch, status, activated_at, last_activity_at, created_at, updated_at) ';

/** Seeds the releases and the fleet into the bench portal's SQLite file; `licenses` is how many the bench made (ids 1…). */
export function seedSqliteFleet(path, licenses, ownerEmail) {
  const db = openSqlite(path);
  try {
    const now = stamp(new Date());
    const version = db.prepare(VERSION_SQL);
    const file = db.prepare(FILE_SQL);
    db.transaction(() => {
      for (const row of releaseRows()) {
        const id = Number(version.run(row.version, row.order, row.published, row.published, row.published).lastInsertRowid);
        file.run(id, row.version, row.file, `bench/${row.file}`, row.hash, now, now);
      }
      db.prepare('UPDATE licenses SET user_id = (SELECT id FROM users WHERE email = ?)').run(ownerEmail);
    })();
    const devices = db.prepare(
      `WITH RECURSIVE s(seq) AS (SELECT ? UNION ALL SELECT seq + 1 FROM s WHERE seq < ?) ${DEVICE_COLUMNS}` +
        `SELECT 1 + seq % ${licenses}, 'fleet-' || seq, 'edge-' || seq || '.example.net', 'StreamHub', '${OLDEST}', 'linux', 'x64', 'active', ?, ?, ?, ? FROM s`,
    );
    for (let start = 1; start <= FLEET_DEVICES; start += CHUNK)
      db.transaction(() => devices.run(start, Math.min(FLEET_DEVICES, start + CHUNK - 1), now, now, now, now))();
  } finally {
    db.close();
  }
}

/** The same on MariaDB (its Sequence engine's seq_a_to_b tables count). */
export async function seedMariadbFleet(url, licenses, ownerEmail) {
  const mysql = require('mysql2/promise');
  const connection = await mysql.createConnection(url);
  try {
    const now = stamp(new Date());
    for (const row of releaseRows()) {
      const [inserted] = await connection.execute(VERSION_SQL, [row.version, row.order, row.published, row.published, row.published]);
      await connection.execute(FILE_SQL, [inserted.insertId, row.version, row.file, `bench/${row.file}`, row.hash, now, now]);
    }
    await connection.execute('UPDATE licenses SET user_id = (SELECT id FROM users WHERE email = ?)', [ownerEmail]);
    for (let start = 1; start <= FLEET_DEVICES; start += CHUNK) {
      const end = Math.min(FLEET_DEVICES, start + CHUNK - 1);
      await connection.query(
        `${DEVICE_COLUMNS}SELECT 1 + seq % ${licenses}, CONCAT('fleet-', seq), CONCAT('edge-', seq, '.example.net'), 'StreamHub', '${OLDEST}', ` +
          `'linux', 'x64', 'active', ?, ?, ?, ? FROM seq_${start}_to_${end}`,
        [now, now, now, now],
      );
    }
  } finally {
    await connection.end();
  }
}

/** An update-API request of a pooled server, as raw HTTP/1.1 bytes (for steadyLoad) and as autocannon's parts. */
export function upgradeRequest(identity) {
  return {
    path: `/api/releases/upgrade?current=${OLDEST}&os=linux&arch=x64`,
    headers: { authorization: `License ${identity.license_key}`, 'x-server-uid': identity.server_uid },
  };
}
