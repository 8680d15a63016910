#!/usr/bin/env node
// Validation benchmark: the activation API's heartbeat (POST /api/license-server/validate) against two
// baselines measured in the same run with the same load (autocannon, 50 connections, same duration):
//   bare   a node:http server answering a fixed JSON body (the machine's limit)
//   nest   a NestJS route on the portal's platform answering the same fixed body (the framework's ceiling)
//   portal the built portal validating existing activated licenses, unique nonce per request, on SQLite
//          (and on MariaDB when `mariadb-admin ping` answers), with the access log on (ACCESS_LOG=all) and the
//          activation rate limits counting every call (set high enough never to refuse the one loading address)
//   and the same portal with ACCESS_LOG=off, to price the access log (one row per request)
// The bare server's figure is the load generator's ceiling on this machine (printed beside the results; a figure
// within 10 % of it measures autocannon, not the server).
// The update call (GET /api/releases/upgrade, a server on the oldest of 200 releases offered the newest, its signed
// link and manifest) is loaded the same way on a portal of its own, its pool's licenses with a fleet of 1,000,000
// devices seeded beside them (support/fleet.mjs; BENCH_FLEET_DEVICES, BENCH_UPDATE=0 to leave it out), against the
// same targets.
// Targets: validate ≥ 0.8 × nest, p99 < 20 ms under a steady load of half nest's rate (open loop, see steadyLoad;
// p99 at saturation is printed too), every validation recorded as a remote log, access log ≤ 5 % of throughput.
// Each run prints the server's CPU per answer, and on MariaDB the database server's too (its inserts and indexes
// run on the same cores). Results also go to bench/results/validate.json (see support/results.mjs).
// Needs the built server (npm run build). BENCH_DURATION (seconds per run, default 10) and BENCH_ROUNDS (default 3;
// the median of the rounds is compared) set the length; BENCH_ENGINES (default "sqlite,mariadb") picks the portal's databases;
// BENCH_PAIRS (default 20) the pairs of short runs that price the access log (see PAIRS), spread over
// BENCH_PAIR_GROUPS (default 4) fresh pairs of portals.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  api,
  freePort,
  killChildren,
  MAIN,
  median,
  requireBuiltServer,
  ROOT,
  sleep,
  start,
  stop,
  waitFor,
  portalEnv,
  readLoopDelay,
  resetLoopDelay,
} from './support/processes.mjs';
import { throwawayMariadb } from './support/mariadb.mjs';
import { benchResults } from './support/results.mjs';
import { describeStalls, machineStalls } from './support/machine-stalls.mjs';
import { steadyLoad } from './support/steady-load.mjs';
import { FLEET_DEVICES, NEWEST, RELEASES, seedMariadbFleet, seedSqliteFleet, upgradeRequest } from './support/fleet.mjs';

const require = createRequire(join(ROOT, 'server/package.json'));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARMUP = Math.min(3, DURATION);
const CONNECTIONS = 50;
const LICENSES = 100;
const DEVICES_PER_LICENSE = 2;
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-password' };
const TARGETS = { ratio: 0.8, p99: 20 };
/** The steady load whose p99 is compared with its target: this share of the NestJS fixed-body route's rate. */
const STEADY_SHARE = 0.5;
/** A figure this close to the bare server's measures the load generator rather than the server. */
const NEAR_CEILING = 0.9;
/** Steady runs at most, per server, while the machine itself stalls during them (see machineStalls). */
const STEADY_ATTEMPTS = 3;
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,mariadb').split(',').map((engine) => engine.trim());
/** The update call (GET /api/releases/upgrade) is measured too, on a portal of its own with releases and a fleet; BENCH_UPDATE=0 leaves it out. */
const UPDATE = process.env.BENCH_UPDATE !== '0';
/**
 * The access log's share is measured apart: BENCH_PAIRS (default 20) pairs of short runs, the portal with it and
 * without it one after the other (in turns first), compared pair by pair. On a shared machine rates swing by a
 * quarter from one 10 s run to the next, far more than the 5 % measured; two runs seconds apart swing together.
 */
const PAIRS = Math.max(2, Number(process.env.BENCH_PAIRS ?? 20));
const PAIR_SECONDS = 2;
/** Fresh pairs of portals the PAIRS are spread over (see pairedShare). */
const PAIR_GROUPS = Math.min(PAIRS, Math.max(1, Number(process.env.BENCH_PAIR_GROUPS ?? 4)));

requireBuiltServer();
const results = benchResults('validate');
// Every server started below times its own answers too (see loop-monitor.cjs), so a steady run's tail can be placed.
process.env.BENCH_ANSWER_TIMES = '1';

const cleanups = [];

async function startFixed(kind) {
  const process_ = start(process.execPath, [join(ROOT, 'bench/support/fixed-body-servers.cjs'), kind]);
  const port = await waitFor(`${kind} server`, async () => Number(process_.output().match(/LISTENING (\d+)/)?.[1]) || null, 30_000);
  return { process: process_, url: `http://127.0.0.1:${port}`, path: '/api/fixed/validate' };
}

/** A throwaway MariaDB database (dropped at the end), with a count of its remote-log rows; null without MariaDB. */
async function mariadbDatabase() {
  const database = await throwawayMariadb();
  if (!database) return null;
  cleanups.push(database.drop);
  const mysql = require('mysql2/promise');
  return {
    url: database.url,
    countRemoteLogs: async (action) => {
      const connection = await mysql.createConnection(database.url);
      const [rows] = await connection.query('SELECT COUNT(*) AS n FROM remote_logs WHERE action = ?', [action]);
      await connection.end();
      return Number(rows[0].n);
    },
  };
}

/** The built portal on a fresh database, with LICENSES licenses of DEVICES_PER_LICENSE activated devices each. */
async function startPortal(engine, extraEnv = {}, { fleet = false } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `portal-bench-${engine}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  let database = null;
  if (engine === 'mariadb') {
    database = await mariadbDatabase();
    if (!database) return null;
  }
  const port = await freePort();
  const portal = start(
    process.execPath,
    [MAIN],
    portalEnv(
      { port, dataDir, admin: ADMIN },
      {
        // The rate limits run (their cost is part of the figure) but never refuse: the load comes from one address.
        ACTIVATION_CALLS_PER_IP_PER_MINUTE: '1000000000',
        ACTIVATION_CALLS_PER_KEY_PER_MINUTE: '1000000000',
        ACCESS_LOG: 'all',
        ACCESS_LOG_SAMPLE: '1',
        ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
        ...extraEnv,
      },
    ),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the portal', async () => (await fetch(`${base}/api/health`)).ok);

  const { data } = await api(base, 'POST', '/api/admin/login', ADMIN);
  const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  const pool = [];
  for (let i = 0; i < LICENSES; i++) {
    const license = await api(
      base,
      'POST',
      '/api/admin/licenses',
      { product_name: 'StreamHub Pro', user_email: `bench${i}@portal.test`, expires_at: expires, max_activations: 5 },
      data.token,
    );
    for (let d = 0; d < DEVICES_PER_LICENSE; d++) {
      const server_uid = `bench-${i}-${d}-${randomBytes(6).toString('hex')}`;
      const answer = await api(base, 'POST', '/api/license-server/activate', {
        license_key: license.data.license_key,
        server_uid,
        nonce: randomBytes(16).toString('base64url'),
      });
      if (answer.data.code !== 'VALID') throw new Error(`activation failed: ${answer.data.code}`);
      pool.push({ license_key: license.data.license_key, server_uid });
    }
  }
  const { data: key } = await api(base, 'GET', '/api/license-server/public-key');
  if (fleet) {
    const started = Date.now();
    if (database) await seedMariadbFleet(database.url, LICENSES, ADMIN.email);
    else seedSqliteFleet(join(dataDir, 'portal.sqlite'), LICENSES, ADMIN.email);
    console.log(
      `  ${engine}: ${RELEASES} releases and ${FLEET_DEVICES.toLocaleString('en-US')} devices seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    // The portal's release catalog is cached for 5 s: let it read the seeded one.
    await sleep(6000);
  }

  let countRemoteLogs = database?.countRemoteLogs;
  if (!countRemoteLogs) {
    const Database = require('better-sqlite3');
    countRemoteLogs = async (action) => {
      const db = new Database(join(dataDir, 'portal.sqlite'), { readonly: true, fileMustExist: true });
      try {
        return Number(db.prepare('SELECT COUNT(*) AS n FROM remote_logs WHERE action = ?').get(action).n);
      } finally {
        db.close();
      }
    };
  }
  return {
    process: portal,
    url: base,
    path: '/api/license-server/validate',
    pool,
    publicKey: createPublicKey(key.public_key_pem),
    countRemoteLogs,
  };
}

/** The remote-log count once it has stopped moving (nothing in flight any more). */
async function settledCount(target) {
  let previous = await target.countRemoteLogs('validate');
  for (;;) {
    // Longer than the portal holds entries before writing them (a second).
    await sleep(1500);
    const current = await target.countRemoteLogs('validate');
    if (current === previous) return current;
    previous = current;
  }
}

/** Canonical JSON, as the portal signs it (sorted keys, no whitespace). */
function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
    .join(',')}}`;
}

/** Validate bodies for `target`, one a call: its pooled identities in turn (for the portal), each with a unique nonce. */
function validateBodies(target) {
  const prefix = randomBytes(6).toString('hex');
  let sequence = 0;
  const pool = target.pool ?? [{ license_key: 'SH-7K2QD-M9XJ4-TA1VC-8PZRN-B3HWE', server_uid: 'bench-server-0000-0000-0000-000000000001' }];
  return () => {
    const identity = pool[sequence % pool.length];
    const nonce = `${prefix}${(sequence++).toString(36).padStart(12, '0')}`;
    const body = JSON.stringify({ ...identity, nonce, hostname: 'bench.example.net', product: 'StreamHub', version: '2.1.0' });
    return { nonce, body, sequence };
  };
}

/**
 * Where a steady run's tail comes from: the server's own answer times (from its 'request' event to the answer handed
 * to the kernel), its event loop's delay (requests waiting to be read) and garbage collection's share of it, and the
 * load generator's own loop, and an idle process beside them all (the machine's own stalls, see machineStalls).
 */
function whereTheTailIs({ loop, clientLoop, machine }) {
  const parts = [];
  if (loop?.answers) parts.push(`in the server p50 ${loop.answers.p50.toFixed(1)} ms, p99 ${loop.answers.p99.toFixed(1)} ms`);
  if (loop) {
    parts.push(
      `its event loop's delay p99 ${loop.p99.toFixed(1)} ms, held ≤ ${loop.max.toFixed(0)} ms ` +
        `(garbage collection ≤ ${loop.gc.max.toFixed(0)} ms a pause, ${loop.gc.total} ms in all)`,
    );
  }
  parts.push(`the load generator's loop p99 ${clientLoop.p99.toFixed(1)} ms, held ≤ ${clientLoop.max.toFixed(0)} ms`);
  if (machine) parts.push(describeStalls(machine));
  return parts.join('; ');
}

/** What the machine did to the steady run a target reads: said only where it was run again or stalled. */
function machineNote(run) {
  const stalled = run.machine.max >= TARGETS.p99;
  if (run.attempts === 1 && !stalled) return '';
  return `; run ${run.attempts} time(s), the machine stalling in ${stalled ? 'each' : `the first ${run.attempts - 1}`}`;
}

/** One autocannon run. Every request carries a validate body; for the portal each has a pooled identity and a unique nonce. */
function load(target, duration, checks, kind) {
  if (kind === 'upgrade') return loadUpgrades(target, duration, checks);
  const next = validateBodies(target);
  let sequence = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: 'POST',
            path: target.path,
            headers: { 'content-type': 'application/json' },
            setupRequest: (request, context) => {
              const call = next();
              sequence = call.sequence;
              context.nonce = call.nonce;
              request.body = call.body;
              return request;
            },
            onResponse: (status, body, context) => {
              // Check one answer in a hundred: VALID, signed by the portal, and made for this request's nonce.
              if (!checks || sequence % 100 !== 0) return;
              checks.sampled += 1;
              const { data } = JSON.parse(body);
              const { signature, ...signed } = data;
              const ok =
                status === 200 &&
                data.code === 'VALID' &&
                data.nonce === context.nonce &&
                verify(null, Buffer.from(canonicalJson(signed)), target.publicKey, Buffer.from(signature, 'base64'));
              if (!ok) checks.failed += 1;
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** A pooled server, chosen at random. */
const anyServer = (target) => target.pool[Math.floor(Math.random() * target.pool.length)];

/** One autocannon run of update calls: pooled servers on the oldest release, each offered the newest. */
function loadUpgrades(target, duration, checks) {
  let sequence = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => Object.assign(request, upgradeRequest(anyServer(target))),
            onResponse: (status, body) => {
              // Check one answer in a hundred: the newest release, with its build's signed link.
              if (!checks || sequence++ % 100 !== 0) return;
              checks.sampled += 1;
              const data = status === 200 ? JSON.parse(body).data : null;
              if (!(data?.version === NEWEST && data.files?.[0]?.url)) checks.failed += 1;
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function summary(name, result) {
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answered: result.requests.total,
    sent: result.requests.sent,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function printRow(row) {
  console.log(
    `  ${row.name.padEnd(16)} ${row.rps.toFixed(0).padStart(7)} req/s   p50 ${String(row.p50).padStart(3)} ms   p99 ${String(row.p99).padStart(3)} ms` +
      (Number.isFinite(row.cpuUs) ? `   CPU ${row.cpuUs.toFixed(0).padStart(4)} µs/answer` : '') +
      (Number.isFinite(row.databaseCpuUs) ? ` (+ MariaDB ${row.databaseCpuUs.toFixed(0)})` : '') +
      (Number.isFinite(row.loopMaxMs) ? `   event loop held ≤ ${row.loopMaxMs.toFixed(0)} ms` : ''),
  );
}

/** CPU seconds (user + system) a process has used. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `count` pairs of short runs, in turns first; the ratios of the rate with the access log to the rate without it. */
async function pairRatios(withLog, withoutLog, count, onRun) {
  const ratios = [];
  for (let pair = 0; pair < count; pair++) {
    const rates = new Map();
    for (const side of pair % 2 ? [withoutLog, withLog] : [withLog, withoutLog]) {
      const run = await load(side, PAIR_SECONDS, null);
      rates.set(side, run.requests.average);
      onRun(side, run);
    }
    ratios.push(rates.get(withLog) / rates.get(withoutLog));
  }
  return ratios;
}

/**
 * The access log's share: the median of PAIRS ratios of the portal's rate with it to the rate without it, taken in
 * PAIR_GROUPS groups, each after the first on a fresh pair of portals: two processes keep for their lifetime a
 * difference of a few per cent in how V8 compiled them, which more pairs of the same two never average out (one
 * run's median moved 0.915-0.994 between runs of the same build).
 */
async function pairedShare(engine, withLog, withoutLog) {
  const countRun = (target, run) => {
    withLog.non2xx += run.non2xx + run.errors + run.timeouts;
    // Only the first pair's portal is checked against its remote log (settledCount).
    if (target !== withLog.target) return;
    withLog.answered += run.requests.total;
    withLog.sent += run.requests.sent;
  };
  const ratios = [];
  for (let group = 0; group < PAIR_GROUPS; group++) {
    const count = Math.round((PAIRS * (group + 1)) / PAIR_GROUPS) - Math.round((PAIRS * group) / PAIR_GROUPS);
    if (group === 0) {
      ratios.push(...(await pairRatios(withLog.target, withoutLog.target, count, countRun)));
      continue;
    }
    const fresh = [await startPortal(engine), await startPortal(engine, { ACCESS_LOG: 'off' })];
    try {
      for (const target of fresh) await load(target, WARMUP, null);
      ratios.push(...(await pairRatios(fresh[0], fresh[1], count, countRun)));
    } finally {
      for (const target of fresh) await stop(target.process);
    }
  }
  return { share: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** The MariaDB server's process, whose CPU a MariaDB portal's answers also cost; null when none runs here. */
function mariadbPid() {
  try {
    return Number(execFileSync('pgrep', ['-x', 'mariadbd'], { encoding: 'utf8' }).split('\n')[0]) || null;
  } catch {
    return null;
  }
}

/** Exactly `amount` validations, each answered before autocannon returns. */
function fixedAmount(target, amount) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: target.url,
        connections: CONNECTIONS,
        amount,
        requests: [
          {
            method: 'POST',
            path: target.path,
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => {
              const identity = target.pool[Math.floor(Math.random() * target.pool.length)];
              request.body = JSON.stringify({ ...identity, nonce: randomBytes(16).toString('base64url') });
              return request;
            },
          },
        ],
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    ),
  );
}

async function main() {
  console.log(
    `Validation benchmark: ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up, ` +
      `${ROUNDS} round(s) (median shown), Node ${process.version}, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
  );
  // Every server is started first; each round then loads them one after another, so drift on a shared
  // machine touches all of them alike.
  const targets = [
    { name: 'node http', target: await startFixed('bare') },
    { name: 'nestjs fixed', target: await startFixed('nest') },
  ];
  for (const engine of ENGINES) {
    const target = await startPortal(engine);
    if (!target) {
      console.log('  (MariaDB not reachable: `mariadb-admin ping` failed; skipped)');
      continue;
    }
    targets.push({
      name: `validate ${engine}`,
      engine,
      database: engine,
      target,
      before: await target.countRemoteLogs('validate'),
      checks: { sampled: 0, failed: 0 },
      answered: 0,
      sent: 0,
      non2xx: 0,
    });
    // The update call on a portal of its own (the validate portal's figures stay comparable), its releases and fleet seeded.
    if (UPDATE)
      targets.push({
        name: `upgrade ${engine}`,
        kind: 'upgrade',
        database: engine,
        target: await startPortal(engine, {}, { fleet: true }),
        checks: { sampled: 0, failed: 0 },
        non2xx: 0,
      });
    // The same portal without its access log: what one row per request costs.
    targets.push({
      name: `no access log ${engine.slice(0, 2)}`,
      accessLogOf: `validate ${engine}`,
      database: engine,
      target: await startPortal(engine, { ACCESS_LOG: 'off' }),
    });
  }

  const runs = new Map(targets.map(({ name }) => [name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.log(`Round ${round}:`);
    for (const entry of targets) {
      const warm = await load(entry.target, WARMUP, null, entry.kind);
      await resetLoopDelay(entry.target.process);
      const cpuBefore = cpuOf(entry.target.process.child.pid);
      // On MariaDB part of each answer's cost is the database server's (its inserts, its indexes), on the same cores.
      const databasePid = entry.database === 'mariadb' ? mariadbPid() : null;
      const databaseCpuBefore = databasePid ? cpuOf(databasePid) : 0;
      const run = await load(entry.target, DURATION, entry.checks ?? null, entry.kind);
      const row = summary(entry.name, run);
      // The longest the server's event loop was held during the run (it measures its own; written twice a second).
      await sleep(600);
      row.loopMaxMs = readLoopDelay(entry.target.process)?.max ?? NaN;
      // CPU time per answer: what the server costs whatever else loads the machine (rates alone swing with it).
      row.cpuUs = ((cpuOf(entry.target.process.child.pid) - cpuBefore) * 1e6) / run.requests.total;
      if (databasePid) row.databaseCpuUs = ((cpuOf(databasePid) - databaseCpuBefore) * 1e6) / run.requests.total;
      runs.get(entry.name).push(row);
      if (entry.kind === 'upgrade') entry.non2xx += warm.non2xx + run.non2xx + run.errors + run.timeouts;
      if (entry.engine) {
        entry.answered += warm.requests.total + run.requests.total;
        entry.sent += warm.requests.sent + run.requests.sent;
        entry.non2xx += warm.non2xx + run.non2xx + run.errors + run.timeouts;
      }
      printRow(row);
    }
  }

  const rows = targets.map(({ name }) => {
    const all = runs.get(name);
    return {
      name,
      rps: median(all.map((r) => r.rps)),
      p50: median(all.map((r) => r.p50)),
      p99: median(all.map((r) => r.p99)),
      cpuUs: median(all.map((r) => r.cpuUs)),
      databaseCpuUs: median(all.map((r) => r.databaseCpuUs ?? NaN)),
    };
  });
  if (ROUNDS > 1) {
    console.log('\nMedians:');
    rows.forEach(printRow);
  }

  // Ratios per round (both measured minutes apart at most), then their median.
  const ratioTo = (name, baseline) => median(runs.get(name).map((run, i) => run.rps / runs.get(baseline)[i].rps));
  console.log('\nRatios (requests per second, median of the per-round ratios):');
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(16)} ${ratioTo(row.name, 'node http').toFixed(2)} × node http   ${ratioTo(row.name, 'nestjs fixed').toFixed(2)} × nestjs fixed`,
    );
  }

  const ceiling = rows.find((r) => r.name === 'node http').rps;
  const ceilingText = `bare node ${Math.round(ceiling).toLocaleString('en-US')} req/s`;
  console.log(`\nThe load generator's ceiling (autocannon against the bare node server): ${ceilingText}`);
  for (const row of rows.filter((r) => r.name !== 'node http' && r.rps >= NEAR_CEILING * ceiling))
    console.log(`  ${row.name}: within 10 % of the ceiling, so limited by the generator rather than the server`);
  const nestRps = rows.find((r) => r.name === 'nestjs fixed').rps;
  results.add({
    figure: 'nestjs fixed-body route (the framework ceiling)',
    value: Math.round(nestRps),
    unit: 'req/s',
    ceiling: ceilingText,
  });

  // Latency under a steady load. At saturation p99 measures the queue that autocannon's connections keep full: at R
  // answers a second each of the 50 waits about 50 / R s whatever the server does (Little's law), so 20 ms there
  // needs 2,500 req/s of the whole machine. The p99 target is read at half the framework's rate instead, open loop.
  const steadyRate = Math.round(STEADY_SHARE * nestRps);
  console.log(
    `\nSteady load: ${steadyRate} req/s (${STEADY_SHARE} × the nestjs fixed rate), open loop, ${CONNECTIONS} connections at most, ` +
      `${DURATION} s; latency from the moment each request was due:`,
  );
  const steady = new Map();
  const stalls = await machineStalls();
  // The portals without their access log too: what its writes add to the tail.
  for (const entry of targets.filter((e) => e.name !== 'node http')) {
    const next = validateBodies(entry.target);
    const steadyRun = (seconds) =>
      steadyLoad({
        url: entry.target.url,
        path: entry.target.path,
        rate: steadyRate,
        seconds,
        connections: CONNECTIONS,
        ...(entry.kind === 'upgrade' ? { get: () => upgradeRequest(anyServer(entry.target)) } : { body: () => next().body }),
      });
    // First unmeasured: this process's own HTTP client is cold (autocannon has its own), and its connections new.
    const warm = await steadyRun(WARMUP);
    const runs = [warm];
    let run;
    // A run during which the machine itself stalled (an idle process held as long as the target) measured the
    // machine: it is shown, and run again, up to STEADY_ATTEMPTS times in all.
    for (let attempt = 1; ; attempt++) {
      await resetLoopDelay(entry.target.process);
      await stalls.reset();
      run = await steadyRun(DURATION);
      run.machine = await stalls.read();
      runs.push(run);
      // Whether the server's own event loop stalled meanwhile (the tail's likeliest cause at this load).
      await sleep(600);
      run.loop = readLoopDelay(entry.target.process);
      const machineStalled = run.machine.max >= TARGETS.p99;
      console.log(
        `  ${(attempt === 1 ? entry.name : '  run again').padEnd(16)} ${run.rate.toFixed(0).padStart(7)} req/s   ` +
          `p50 ${run.p50.toFixed(1)} ms   p99 ${run.p99.toFixed(1)} ms   max ${run.max.toFixed(0)} ms\n${' '.repeat(35)}${whereTheTailIs(run)}` +
          (machineStalled ? `\n${' '.repeat(35)}the machine stalled ${run.machine.max.toFixed(0)} ms: this run measured it` : ''),
      );
      run.attempts = attempt;
      if (!machineStalled || attempt === STEADY_ATTEMPTS) break;
    }
    steady.set(entry.name, run);
    if (entry.kind === 'upgrade') for (const each of runs) entry.non2xx += each.non2xx + each.errors;
    if (entry.engine) {
      for (const each of runs) {
        entry.answered += each.answered;
        entry.sent += each.sent;
        entry.non2xx += each.non2xx + each.errors;
      }
    }
  }
  stalls.stop();

  let failed = false;
  if (UPDATE)
    console.log(`\nUpdate API targets (${RELEASES} releases, ${FLEET_DEVICES.toLocaleString('en-US')} devices besides the pool):`);
  for (const entry of targets.filter((e) => e.kind === 'upgrade')) {
    const row = rows.find((r) => r.name === entry.name);
    const ratio = ratioTo(entry.name, 'nestjs fixed');
    const run = steady.get(entry.name);
    const checks = [
      [`≥ ${TARGETS.ratio} × nestjs fixed`, ratio >= TARGETS.ratio, ratio.toFixed(2)],
      [
        `p99 < ${TARGETS.p99} ms at a steady ${steadyRate} req/s`,
        run.p99 < TARGETS.p99,
        `${run.p99.toFixed(1)} ms (in the server ${run.loop?.answers?.p99.toFixed(1) ?? '?'}; nestjs fixed ${steady.get('nestjs fixed').p99.toFixed(1)}; ` +
          `at saturation ${row.p99} ms${machineNote(run)})`,
      ],
      ['only 2xx answers', entry.non2xx === 0, `${entry.non2xx} non-2xx or failed`],
      [
        `sampled answers offer ${NEWEST} with a signed link`,
        entry.checks.failed === 0 && entry.checks.sampled > 0,
        `${entry.checks.sampled - entry.checks.failed}/${entry.checks.sampled}`,
      ],
    ];
    results.add({
      figure: `upgrade (${entry.database}, ${RELEASES} releases, ${FLEET_DEVICES} devices) / nestjs fixed`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: { op: '>=', value: TARGETS.ratio },
      ceiling: ceilingText,
      note: `${Math.round(row.rps)} req/s, CPU ${row.cpuUs.toFixed(0)} µs/answer (nestjs fixed ${rows.find((r) => r.name === 'nestjs fixed').cpuUs.toFixed(0)})`,
    });
    results.add({
      figure: `upgrade (${entry.database}) p99 at a steady ${STEADY_SHARE} × the nestjs rate`,
      value: Number(run.p99.toFixed(1)),
      unit: 'ms',
      target: { op: '<', value: TARGETS.p99 },
      note: `${steadyRate} req/s open loop (nestjs fixed ${steady.get('nestjs fixed').p99.toFixed(1)} ms)${machineNote(run)}`,
    });
    for (const [what, ok, detail] of checks.slice(2))
      results.add({
        figure: `upgrade (${entry.database}): ${what}`,
        value: ok ? 1 : 0,
        unit: 'check',
        target: { op: '==', value: 1 },
        note: detail,
      });
    for (const [what, ok, detail] of checks) {
      console.log(`  ${entry.database.padEnd(8)} ${ok ? 'PASS' : 'FAIL'}  ${what.padEnd(46)} ${detail}`);
      if (!ok) failed = true;
    }
  }
  console.log('\nValidate targets:');
  for (const entry of targets.filter((e) => e.engine)) {
    const row = rows.find((r) => r.name === entry.name);
    const withoutAccessLog = targets.find((e) => e.accessLogOf === entry.name);
    const paired = await pairedShare(entry.engine, entry, withoutAccessLog);
    const accessLogShare = paired.share;
    // Requests in flight when a timed run closed its sockets are still answered: let them land first.
    const afterTimed = await settledCount(entry.target);
    const timedRows = afterTimed - entry.before;
    const exact = await fixedAmount(entry.target, 5000);
    const exactRows = (await settledCount(entry.target)) - afterTimed;
    await stop(entry.target.process);
    const ratio = ratioTo(entry.name, 'nestjs fixed');
    const checks = [
      [`≥ ${TARGETS.ratio} × nestjs fixed`, ratio >= TARGETS.ratio, ratio.toFixed(2)],
      [
        `p99 < ${TARGETS.p99} ms at a steady ${steadyRate} req/s`,
        steady.get(entry.name).p99 < TARGETS.p99,
        `${steady.get(entry.name).p99.toFixed(1)} ms (in the server ${steady.get(entry.name).loop?.answers?.p99.toFixed(1) ?? '?'}; ` +
          `nestjs fixed ${steady.get('nestjs fixed').p99.toFixed(1)}; at saturation ${row.p99} ms${machineNote(steady.get(entry.name))})`,
      ],
      [
        'access log costs ≤ 5 % (on / off ≥ 0.95)',
        accessLogShare >= 0.95,
        `${accessLogShare.toFixed(3)} (median of ${PAIRS} pairs of ${PAIR_SECONDS} s runs on ${PAIR_GROUPS} pairs of portals, ${paired.low.toFixed(2)}-${paired.high.toFixed(2)}; ` +
          `rounds: ${ratioTo(entry.name, withoutAccessLog.name).toFixed(3)})`,
      ],
      ['only 2xx answers', entry.non2xx === 0, `${entry.non2xx} non-2xx or failed`],
      [
        'sampled answers VALID, signed, nonce echoed',
        entry.checks.failed === 0 && entry.checks.sampled > 0,
        `${entry.checks.sampled - entry.checks.failed}/${entry.checks.sampled}`,
      ],
      [
        'timed runs: every answered validation logged',
        timedRows >= entry.answered && timedRows <= entry.sent,
        `${timedRows} rows for ${entry.answered} answered (+${entry.sent - entry.answered} in flight when the clients closed)`,
      ],
      [
        'fixed run: log rows = validations served',
        exactRows === exact.requests.total && exact['2xx'] === exact.requests.total && exact.requests.total === 5000,
        `${exactRows} rows for ${exact.requests.total} answers`,
      ],
    ];
    results.add({
      figure: `validate (${entry.engine}, access log + rate limits on) / nestjs fixed`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: { op: '>=', value: TARGETS.ratio },
      ceiling: ceilingText,
      note:
        `${Math.round(row.rps)} req/s, CPU ${row.cpuUs.toFixed(0)} µs/answer (nestjs fixed ${rows.find((r) => r.name === 'nestjs fixed').cpuUs.toFixed(0)})` +
        (row.rps >= NEAR_CEILING * ceiling ? ', within 10 % of the ceiling' : ''),
    });
    results.add({
      figure: `validate (${entry.engine}) p99 at a steady ${STEADY_SHARE} × the nestjs rate`,
      value: Number(steady.get(entry.name).p99.toFixed(1)),
      unit: 'ms',
      target: { op: '<', value: TARGETS.p99 },
      note:
        `${steadyRate} req/s open loop (nestjs fixed ${steady.get('nestjs fixed').p99.toFixed(1)} ms); ` +
        `at saturation, ${CONNECTIONS} connections: ${row.p99} ms${machineNote(steady.get(entry.name))}`,
    });
    results.add({
      figure: `validate (${entry.engine}) access log on / off`,
      value: Number(accessLogShare.toFixed(3)),
      unit: '×',
      target: { op: '>=', value: 0.95 },
      note: `at most 5 % slower with one access-log row per request (median of ${PAIRS} alternating pairs of ${PAIR_SECONDS} s runs)`,
    });
    for (const [what, ok, detail] of checks.slice(3))
      results.add({
        figure: `validate (${entry.engine}): ${what}`,
        value: ok ? 1 : 0,
        unit: 'check',
        target: { op: '==', value: 1 },
        note: detail,
      });
    for (const [what, ok, detail] of checks) {
      console.log(`  ${entry.engine.padEnd(8)} ${ok ? 'PASS' : 'FAIL'}  ${what.padEnd(46)} ${detail}`);
      if (!ok) failed = true;
    }
  }
  for (const entry of targets) await stop(entry.target.process);
  return failed ? 1 : 0;
}

main()
  .then(async (code) => {
    results.save();
    for (const cleanup of cleanups) await cleanup();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(error);
    results.add({
      figure: 'benchmark ran to the end',
      value: 0,
      unit: 'check',
      target: { op: '==', value: 1 },
      note: String(error.message ?? error).slice(0, 200),
    });
    results.save();
    killChildren();
    for (const cleanup of cleanups)
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    process.exit(1);
  });
