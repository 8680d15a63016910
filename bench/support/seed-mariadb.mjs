// Fills a migrated MariaDB database with a large vendor's data, straight in SQL (MariaDB's seq_1_to_N tables), in
// chunks so no single statement holds millions of rows: users, licenses, devices, versions, files, downloads (with
// their per-day figures and file counters), access and audit logs, and (when `counts.orders` is given) orders.
// Rows look like real ones: spread over a year, a mix of statuses, searchable names, e-mails and addresses.
// A table whose count is 0 is left empty (bench:lists seeds no logs).

const CHUNK = 250_000;

/** The sizes of a vendor with a large customer base (the issues' targets), scaled by `scale`. */
export function sizes(scale = 1) {
  const n = (value) => Math.max(1, Math.round(value * scale));
  return {
    users: n(100_000),
    licenses: n(1_000_000),
    devices: n(1_000_000),
    versions: n(2_000),
    files: n(20_000),
    downloads: n(5_000_000),
    accessLogs: n(5_000_000),
    auditLogs: n(1_000_000),
  };
}

async function chunked(connection, total, statement, log, size = CHUNK) {
  if (!(total > 0)) return;
  for (let start = 1; start <= total; start += size) {
    const end = Math.min(total, start + size - 1);
    // The running portal's jobs (device inactivity, license expiry) may lock the same rows: retry a deadlock.
    for (let attempt = 1; ; attempt++) {
      try {
        await connection.query(statement(start, end));
        break;
      } catch (error) {
        if (error.code !== 'ER_LOCK_DEADLOCK' || attempt === 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
      }
    }
    log?.(end, total);
  }
}

const seqRange = (start, end) => `(SELECT seq FROM seq_${start}_to_${end}) s`;

/** Seeds every table; `log(table, done, total)` reports progress. */
export async function seedMariadb(connection, counts, log = () => undefined) {
  const c = counts;
  await connection.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');

  await chunked(
    connection,
    c.users,
    (a, b) =>
      `INSERT INTO users (email, password_hash, first_name, last_name, company, country, role, is_active, is_verified, last_login, created_at, updated_at)
       SELECT CONCAT('user', seq, '@bench.test'), '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', CONCAT('First', seq), CONCAT('Last', seq),
              IF(seq % 5 = 0, CONCAT('Company ', seq % 997), NULL), ELT(1 + seq % 4, 'Germany', 'France', 'USA', 'Japan'),
              IF(seq % 500 = 0, 'moderator', 'client'), seq % 10 <> 0, seq % 3 <> 0,
              NOW(3) - INTERVAL (seq % 90) DAY, NOW(6) - INTERVAL (seq % 700) DAY - INTERVAL (seq % 86400) SECOND, NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('users', done, total),
  );

  // The users search's trigram postings (the portal keeps them for the users it writes; see user-trigrams.ts):
  // every distinct 3-character part of the lower-cased "email first_name last_name", as its backfill makes them.
  const [[{ top }]] = await connection.query('SELECT COALESCE(MAX(id), 0) AS top FROM users');
  await chunked(
    connection,
    Number(top),
    (a, b) =>
      `INSERT IGNORE INTO user_search_trigrams (trigram, user_id)
       SELECT SUBSTRING(t.text, n.seq, 3), t.id
       FROM (SELECT id, LOWER(CONCAT(email, ' ', first_name, ' ', last_name)) AS text FROM users WHERE id BETWEEN ${a} AND ${b}) t
       JOIN seq_1_to_600 n ON n.seq <= CHAR_LENGTH(t.text) - 2`,
    (done, total) => log('user_search_trigrams', done, total),
    // ~30 postings a user: 10,000 users a statement.
    10_000,
  );

  await chunked(
    connection,
    c.versions,
    (a, b) =>
      `INSERT INTO versions (version, release_date, changelog, is_stable, is_latest, license_server_sync, created_at, updated_at)
       SELECT CONCAT(FLOOR(seq / 100) + 1, '.', seq % 100, '.0'), DATE_FORMAT(NOW() - INTERVAL (${c.versions} - seq) DAY, '%Y-%m-%d'),
              CONCAT('Changes in build ', seq), seq % 4 <> 0, seq = ${c.versions}, 1, NOW(6) - INTERVAL (${c.versions} - seq) DAY, NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('versions', done, total),
  );

  const perFile = Math.max(1, Math.floor(c.downloads / c.files));
  await chunked(
    connection,
    c.files,
    (a, b) =>
      `INSERT INTO distribution_files (version_id, os_type, architecture, file_name, storage_key, file_size, file_hash, download_count, created_at, updated_at)
       SELECT 1 + seq % ${c.versions}, ELT(1 + seq % 3, 'windows', 'linux', 'macos'), ELT(1 + FLOOR(seq / 3) % 3, 'x64', 'x86', 'arm64'),
              CONCAT('streamhub-', seq, ELT(1 + seq % 3, '.exe', '.deb', '.dmg')), CONCAT('bench/', seq), 50000000 + seq, SHA2(seq, 256),
              ${perFile}, NOW(6) - INTERVAL (seq % 700) DAY, NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('distribution_files', done, total),
  );

  await chunked(
    connection,
    c.licenses,
    (a, b) =>
      `INSERT INTO licenses (license_key, product_name, user_id, user_email, status, is_trial, expires_at, max_activations, current_activations, created_at, updated_at)
       SELECT CONCAT('SH-', LPAD(HEX(seq), 8, '0'), '-', UPPER(SUBSTR(MD5(seq), 1, 5)), '-', UPPER(SUBSTR(MD5(seq), 6, 5)), '-', UPPER(SUBSTR(MD5(seq), 11, 5))),
              ELT(1 + seq % 3, 'StreamHub Pro', 'StreamHub Enterprise', 'StreamHub Basic'),
              1 + seq % ${c.users}, CONCAT('user', 1 + seq % ${c.users}, '@bench.test'),
              IF(seq % 20 = 0, 'revoked', IF(seq % 7 = 0, 'expired', 'active')), seq % 4 = 0,
              IF(seq % 7 = 0, NOW(3) - INTERVAL (seq % 300) DAY, NOW(3) + INTERVAL (1 + seq % 400) DAY),
              1 + seq % 5, IF(seq <= ${c.devices}, 1, 0), NOW(6) - INTERVAL (seq % 700) DAY - INTERVAL (seq % 86400) SECOND, NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('licenses', done, total),
  );

  // As the portal stores keys since the ListIndexes migration: also without hyphens, for the key search.
  const [compact] = await connection.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'licenses' AND column_name = 'license_key_compact'`,
  );
  if (compact.length)
    await connection.query(`UPDATE licenses SET license_key_compact = REPLACE(license_key, '-', '') WHERE license_key_compact IS NULL`);

  await chunked(
    connection,
    Math.min(c.devices, c.licenses),
    (a, b) =>
      `INSERT INTO devices (license_id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, last_ip, created_at, updated_at)
       SELECT seq, CONCAT('srv-', seq), CONCAT('Server ', seq), CONCAT('edge-', seq, '.example.net'), 'StreamHub', '2.1.0',
              IF(seq % 6 = 0, 'inactive', 'active'), NOW(3) - INTERVAL (seq % 300) DAY, NOW(3) - INTERVAL (seq % 48) HOUR,
              CONCAT('10.', seq % 256, '.', FLOOR(seq / 256) % 256, '.', FLOOR(seq / 65536) % 256), NOW(6), NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('devices', done, total),
  );

  await chunked(
    connection,
    c.downloads,
    (a, b) =>
      `INSERT INTO download_logs (user_id, user_email, file_id, file_name, version, os_type, architecture, file_size, ip_address, user_agent, via, created_at)
       SELECT 1 + seq % ${c.users}, CONCAT('user', 1 + seq % ${c.users}, '@bench.test'), 1 + seq % ${c.files}, CONCAT('streamhub-', 1 + seq % ${c.files}, '.zip'),
              CONCAT(FLOOR((seq % ${c.versions}) / 100) + 1, '.', (seq % ${c.versions}) % 100, '.0'),
              ELT(1 + seq % 3, 'windows', 'linux', 'macos'), ELT(1 + FLOOR(seq / 3) % 3, 'x64', 'x86', 'arm64'), 50000000,
              CONCAT('10.', seq % 256, '.', FLOOR(seq / 256) % 256, '.', FLOOR(seq / 65536) % 256), 'curl/8.5.0', IF(seq % 2 = 0, 'session', 'link'),
              NOW(3) - INTERVAL FLOOR(seq * 31536000 / ${c.downloads}) SECOND
       FROM ${seqRange(a, b)}`,
    (done, total) => log('download_logs', done, total),
  );
  if (c.downloads > 0) {
    // The per-day download figures the portal keeps as it logs downloads: by OS and architecture, by version, by OS.
    await connection.query(`DELETE FROM daily_stats WHERE metric IN ('downloads_os', 'downloads_platform', 'downloads_version')`);
    await connection.query(
      `INSERT INTO daily_stats (day, metric, dimension, value)
       SELECT DATE_FORMAT(created_at, '%Y-%m-%d'), 'downloads_platform', CONCAT(COALESCE(os_type, ''), '|', COALESCE(architecture, '')), COUNT(*)
       FROM download_logs GROUP BY 1, 3`,
    );
    await connection.query(
      `INSERT INTO daily_stats (day, metric, dimension, value)
       SELECT DATE_FORMAT(created_at, '%Y-%m-%d'), 'downloads_version', LEFT(COALESCE(version, ''), 100), COUNT(*)
       FROM download_logs GROUP BY 1, 3`,
    );
    await connection.query(
      `INSERT INTO daily_stats (day, metric, dimension, value)
       SELECT day, 'downloads_os', SUBSTRING_INDEX(dimension, '|', 1), SUM(value) FROM daily_stats WHERE metric = 'downloads_platform' GROUP BY 1, 3`,
    );
    log('daily_stats', 1, 1);
  }

  // The access log as the portal writes it, oldest first: row `seq` is `seq` steps of a year back from now.
  const routes = `'/api/license-server/validate', '/api/admin/users', '/api/download/:id', '/api/me', '/api/admin/licenses', '/api/login'`;
  await chunked(
    connection,
    c.accessLogs,
    (a, b) =>
      `INSERT INTO access_logs (method, route, path, status, duration_ms, bytes_out, user_id, user_email, ip_address, user_agent, created_at)
       SELECT ELT(1 + seq % 6, 'POST', 'GET', 'GET', 'GET', 'GET', 'POST'), ELT(1 + seq % 6, ${routes}),
              ELT(1 + seq % 6, '/api/license-server/validate', '/api/admin/users', CONCAT('/api/download/', seq % 20000), '/api/me', '/api/admin/licenses', '/api/login'),
              ELT(1 + seq % 20, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 304, 401, 404, 429, 500),
              seq % 250, 200 + seq % 5000, IF(seq % 3 = 0, NULL, 1 + seq % ${c.users}), IF(seq % 3 = 0, NULL, CONCAT('user', 1 + seq % ${c.users}, '@bench.test')),
              CONCAT('10.', seq % 256, '.', FLOOR(seq / 256) % 256, '.', FLOOR(seq / 65536) % 256), 'Mozilla/5.0 (bench)',
              NOW(3) - INTERVAL FLOOR(seq * 31536000 / ${c.accessLogs}) SECOND
       FROM (SELECT ${c.accessLogs} + 1 - seq AS seq FROM seq_${a}_to_${b}) s`,
    (done, total) => log('access_logs', done, total),
  );

  await chunked(
    connection,
    c.auditLogs,
    (a, b) =>
      `INSERT INTO audit_logs (level, action, message, actor_id, actor_email, target_type, target_id, ip_address, user_agent, context, created_at)
       SELECT ELT(1 + seq % 20, 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'info', 'warning', 'warning', 'warning', 'error'),
              ELT(1 + seq % 5, 'auth.login', 'user.update', 'license.create', 'license.revoke', 'version.upload'),
              CONCAT(ELT(1 + seq % 5, 'Sign in', 'Update user', 'Create license', 'Revoke license', 'Upload version'), ': user', 1 + seq % ${c.users}, '@bench.test'),
              IF(seq % 5 = 0, 1 + seq % ${c.users}, 1), IF(seq % 5 = 0, CONCAT('user', 1 + seq % ${c.users}, '@bench.test'), 'admin@bench.test'),
              ELT(1 + seq % 5, NULL, 'user', 'license', 'license', 'version'), seq % 100000,
              CONCAT('10.', seq % 256, '.', FLOOR(seq / 256) % 256, '.', FLOOR(seq / 65536) % 256), 'Mozilla/5.0 (bench)', NULL,
              NOW(3) - INTERVAL FLOOR(seq * 31536000 / ${c.auditLogs}) SECOND
       FROM ${seqRange(a, b)}`,
    (done, total) => log('audit_logs', done, total),
  );

  await chunked(
    connection,
    c.orders ?? 0,
    (a, b) =>
      `INSERT INTO orders (user_id, user_email, product_name, devices, months, unit_price_cents, amount_cents, currency, status, payment_provider,
                           payment_reference, paid_at, created_at, updated_at)
       SELECT 1 + seq % ${c.users}, CONCAT('user', 1 + seq % ${c.users}, '@bench.test'), 'StreamHub v2.1.0', 1 + seq % 3, 12, 1000,
              (1 + seq % 3) * 12 * 1000, 'EUR', ELT(1 + seq % 7, 'paid', 'paid', 'paid', 'paid', 'paid', 'pending', 'failed'), 'sandbox',
              IF(seq % 7 < 5, CONCAT('bench-', seq), NULL), IF(seq % 7 < 5, NOW(3) - INTERVAL (seq % 700) DAY, NULL),
              NOW(6) - INTERVAL (seq % 700) DAY - INTERVAL (seq % 86400) SECOND, NOW(6)
       FROM ${seqRange(a, b)}`,
    (done, total) => log('orders', done, total),
  );

  await connection.query('SET SESSION unique_checks = 1, foreign_key_checks = 1');
  for (const table of [
    'users',
    'user_search_trigrams',
    'licenses',
    'devices',
    'versions',
    'distribution_files',
    'orders',
    'download_logs',
    'access_logs',
    'audit_logs',
  ]) {
    await connection.query(`ANALYZE TABLE ${table}`);
  }
}
