#!/usr/bin/env node
// Exports and a full license-server push at size on the embedded engine (SQLite): seeds 1,000,000 licenses and
// 1,000,000 audit rows (bench/support/seed-sqlite-logs.mjs), then streams both exports as JSON and reports rows per
// second and the server's memory growth, then points the portal at another portal as its license server for 20 s of
// the full push that starts; meanwhile /api/health's and the activation API's validate latency
// (bench/support/export-probe.mjs). bench/logs.mjs measures the same on MariaDB.
// Targets: ≥ 50,000 rows/s, RSS growth < 100 MB, /api/health and validate p99 < 50 ms.
// BENCH_SCALE (default 1) shrinks or grows the tables.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureHeavyWork, PROBE_ENV } from './support/export-probe.mjs';
import { api, freePort, killChildren, MAIN, requireBuiltServer, start, stop, waitFor, portalEnv } from './support/processes.mjs';
import { benchResults } from './support/results.mjs';
import { seedSqliteLogs } from './support/seed-sqlite-logs.mjs';

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-password' };

requireBuiltServer();

/** Figures for bench/summary.mjs (saved at the end, also after a failure). */
const results = benchResults('exports');

async function main() {
  const counts = { licenses: Math.round(1_000_000 * SCALE), audit: Math.round(1_000_000 * SCALE) };
  console.log(`Exports at size on SQLite: ${JSON.stringify(counts)}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-exports-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = portalEnv(
    { port, dataDir, admin: ADMIN },
    {
      // The seeded audit trail spans a year: retention would prune three quarters of it while the benchmark runs.
      LOG_RETENTION_DAYS: '36500',
      ...PROBE_ENV,
    },
  );
  const health = async () => (await fetch(`${base}/api/health`)).ok;
  // The first start migrates the database; it is seeded while the portal is stopped (SQLite has one writer).
  let portal = start(process.execPath, [MAIN], env);
  try {
    await waitFor('the portal', health);
    await stop(portal);
    const started = Date.now();
    seedSqliteLogs(join(dataDir, 'portal.sqlite'), counts, (table, done, total) => {
      if (done === total) console.log(`  seeded ${table} ${done}/${total} (${Math.round((Date.now() - started) / 1000)} s)`);
    });
    portal = start(process.execPath, [MAIN], env);
    await waitFor('the portal', health);
    const { data } = await api(base, 'POST', '/api/admin/login', ADMIN);
    const report = await measureHeavyWork(base, data.token, portal, 'SQLite');
    const failed = report(results);
    return failed ? 1 : 0;
  } finally {
    results.save();
    await stop(portal);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error);
    killChildren();
    process.exit(1);
  });
