// Measures what heavy work costs everyone else: a streamed export (rows per second, the server's memory growth, RSS
// sampled every 50 ms from /proc) and a full license-server push (licenses pushed per second), and meanwhile how long
// the server keeps other requests waiting, two ways: probes ask /api/health and the activation API's validate (a
// streaming server's heartbeat) every 100 ms each and keep each answer's latency, and the server's own event-loop
// delay (perf_hooks, see loop-monitor.cjs).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStalls, machineStalls } from './machine-stalls.mjs';
import { api, freePort, MAIN, portalEnv, readLoopDelay, resetLoopDelay, sleep, start, stop, waitFor } from './processes.mjs';

/** The activation API's rate limits, counting but never refusing the probe (one address, one key, 10 calls a second). */
export const PROBE_ENV = { ACTIVATION_CALLS_PER_IP_PER_MINUTE: '1000000', ACTIVATION_CALLS_PER_KEY_PER_MINUTE: '1000000' };

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Latencies (ms, sorted) of `ask()`, asked every 100 ms until `until()` says stop. */
async function probe(ask, until) {
  const latencies = [];
  while (!until()) {
    const started = process.hrtime.bigint();
    await ask();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    await sleep(100);
  }
  return latencies.sort((a, b) => a - b);
}

/** The two probes' asks: /api/health, and a validate of `identity` (an activated server) that must answer VALID. */
function asks(base, identity) {
  return {
    health: async () => {
      const response = await fetch(`${base}/api/health`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/api/health answered ${response.status}`);
    },
    validate: async () => {
      const response = await fetch(`${base}/api/license-server/validate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...identity, nonce: randomBytes(16).toString('base64url') }),
      });
      const body = await response.json();
      if (body.data?.code !== 'VALID') throw new Error(`validate answered ${response.status} ${JSON.stringify(body)}`);
    },
  };
}

/** Both probes while `work` runs (each answer's latency from both), with their p99 over 3 s before it for comparison. */
async function probedWhile(base, identity, portal, work) {
  const { health, validate } = asks(base, identity);
  const idleUntil = Date.now() + 3_000;
  const idle = await Promise.all([probe(health, () => Date.now() > idleUntil), probe(validate, () => Date.now() > idleUntil)]);
  await resetLoopDelay(portal);
  const machine = await machineStalls();
  await machine.reset();
  let probing = true;
  const probes = Promise.all([probe(health, () => !probing), probe(validate, () => !probing)]);
  let outcome;
  try {
    outcome = await work();
  } finally {
    probing = false;
  }
  const [healthSorted, validateSorted] = await probes;
  const stalls = await machine.read();
  machine.stop();
  // The server writes its histogram twice a second.
  await sleep(600);
  const loop = readLoopDelay(portal);
  const figures = (sorted, idleSorted) => ({
    probes: sorted.length,
    p99: percentile(sorted, 99) ?? 0,
    max: sorted.at(-1) ?? 0,
    idleP99: percentile(idleSorted, 99) ?? 0,
  });
  return {
    ...outcome,
    health: figures(healthSorted, idle[0]),
    validate: figures(validateSorted, idle[1]),
    loopP99: loop?.p99 ?? null,
    loopMax: loop?.max ?? null,
    stalls,
  };
}

/** A streaming server activated on a new license of the portal: the validate probe's identity. */
async function activatedServer(base, token) {
  const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  const { data: license } = await api(
    base,
    'POST',
    '/api/admin/licenses',
    { product_name: 'StreamHub Pro', user_email: 'bench-probe@portal.test', expires_at: expires, max_activations: 1 },
    token,
  );
  const identity = { license_key: license.license_key, server_uid: `bench-probe-${randomBytes(6).toString('hex')}` };
  const { data } = await api(base, 'POST', '/api/license-server/activate', { ...identity, nonce: randomBytes(16).toString('base64url') });
  if (data.code !== 'VALID') throw new Error(`activation failed: ${data.code}`);
  return identity;
}

/**
 * Streams `path` (a JSON export: one row per line) as the admin, while the probes ask (`identity`: the validate
 * probe's activated server); returns rows, bytes, seconds, RSS growth and the probes' figures.
 */
async function measureExport(base, token, portal, path, identity) {
  const pid = portal.child.pid;
  let baseline = 0;
  let peak = 0;
  let sampler;
  const measured = await probedWhile(base, identity, portal, async () => {
    baseline = peak = rssOf(pid);
    sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const started = process.hrtime.bigint();
    const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    let rows = 0;
    let bytes = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    clearInterval(sampler);
    // One line per row, plus the closing bracket's line.
    return { rows: rows - 1, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  }).finally(() => clearInterval(sampler));
  return { ...measured, rssGrowth: peak - baseline };
}

/** Another portal (SQLite, empty) that accepts license-server sync: the target of a full push. */
async function startLicenseServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-license-server-'));
  const port = await freePort();
  const token = randomBytes(24).toString('base64url');
  const env = portalEnv(
    { port, dataDir, admin: { email: 'bench-ls-admin@portal.test', password: 'bench-ls-admin-password' } },
    { LICENSE_SERVER_SYNC_TOKEN: token },
  );
  const portal = start(process.execPath, [MAIN], env);
  const url = `http://127.0.0.1:${port}`;
  await waitFor('the license server', async () => (await fetch(`${url}/api/health`)).ok);
  return {
    url,
    token,
    stop: async () => {
      await stop(portal);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A full license-server push: points the portal at `server` (another portal accepting sync with `server.token`),
 * which starts a full sync of every version, license and seat-holding device, and probes for `seconds` while it runs
 * (or until it completes); then points the portal back at itself. Returns what it pushed and the probes' figures.
 */
async function measurePush(base, token, portal, server, identity, seconds = 20) {
  const setting = (key, value) => api(base, 'PATCH', '/api/admin/settings', { key, value }, token);
  const fullSync = async () => (await api(base, 'GET', '/api/admin/license-server', undefined, token)).data.full_sync;
  try {
    return await probedWhile(base, identity, portal, async () => {
      await setting('license_server.api_token', server.token);
      await setting('license_server.url', server.url);
      const started = Date.now();
      // The run towards this server (a small one may have completed already when first read).
      await waitFor('the full sync to start', async () => (await fullSync())?.target_url === server.url, 10_000);
      let run = await fullSync();
      while (Date.now() - started < seconds * 1000 && run.status === 'running') {
        await sleep(500);
        run = await fullSync();
      }
      return { seconds: (Date.now() - started) / 1000, run };
    });
  } finally {
    await setting('license_server.url', '');
  }
}

/** Prints one line per probe (`what`: during what) against p99 < 50 ms and adds them to `results`; true when both met. */
function reportProbes(what, m, results) {
  let pass = true;
  for (const [name, path] of [
    ['health', '/api/health'],
    ['validate', 'validate'],
  ]) {
    const f = m[name];
    const met = f.p99 < 50;
    pass &&= met;
    console.log(
      `  ${met ? 'PASS' : 'FAIL'}  ${path} during ${what}: p99 ${f.p99.toFixed(1)} ms (< 50), max ${f.max.toFixed(1)} ms ` +
        `(${f.probes} probes; p99 ${f.idleP99.toFixed(1)} ms before it)`,
    );
    results?.add({
      figure: `${what}: ${path} p99 meanwhile`,
      value: +f.p99.toFixed(1),
      unit: 'ms',
      target: { op: '<', value: 50 },
      note: `before it: p99 ${f.idleP99.toFixed(1)} ms`,
    });
  }
  console.log(`        the server's event loop meanwhile: delay p99 ${m.loopP99} ms, max ${m.loopMax} ms; ${describeStalls(m.stalls)}`);
  results?.add({ figure: `${what}: event-loop delay max (in the server)`, value: m.loopMax, unit: 'ms' });
  return pass;
}

/**
 * Prints the push's figures (what it pushed, at what rate) and its probes against p99 < 50 ms, adds them to
 * `results`; returns whether it passed (the push must have moved on, and both probes met their target).
 */
function reportPush(engine, m, results) {
  const { versions, licenses, devices, phase, status } = m.run;
  const moved = versions.done + licenses.done + devices.done > 0;
  const rate = licenses.done / m.seconds;
  console.log(
    `  ${moved ? 'PASS' : 'FAIL'}  full license-server push (${engine}), ${m.seconds.toFixed(0)} s: ${status}, phase ${phase}; ` +
      `versions ${versions.done}/${versions.total}, licenses ${licenses.done}/${licenses.total} (${Math.round(rate)}/s), ` +
      `devices ${devices.done}/${devices.total}`,
  );
  results?.add({
    figure: `full license-server push: licenses pushed/s`,
    value: Math.round(rate),
    unit: 'rows/s',
    note: `${licenses.done} of ${licenses.total} in ${m.seconds.toFixed(0)} s`,
  });
  results?.add({ figure: 'full license-server push: moved on', value: moved ? 1 : 0, unit: 'check', target: { op: '==', value: 1 } });
  return reportProbes('the full license-server push', m, results) && moved;
}

/**
 * Prints the export's line against the targets (≥ 50,000 rows/s, RSS growth < 100 MB, health p99 < 50 ms) and adds
 * its figures to `results` (bench/support/results.mjs) when given; returns whether it passed.
 */
function reportExport(what, e, results) {
  const rate = e.rows / e.seconds;
  const pass = rate >= 50_000 && e.rssGrowth < 100 * 1024 ** 2;
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  export of ${e.rows} ${what}: ${Math.round(rate)} rows/s (≥ 50,000), ` +
      `${(e.bytes / 1024 ** 2).toFixed(0)} MB in ${e.seconds.toFixed(1)} s, server RSS +${(e.rssGrowth / 1024 ** 2).toFixed(1)} MB (< 100)`,
  );
  results?.add({ figure: `export of ${what}: rows/s`, value: Math.round(rate), unit: 'rows/s', target: { op: '>=', value: 50_000 } });
  results?.add({
    figure: `export of ${what}: RSS growth`,
    value: +(e.rssGrowth / 1024 ** 2).toFixed(1),
    unit: 'MB',
    target: { op: '<', value: 100 },
  });
  return reportProbes(`the export of ${what}`, e, results) && pass;
}

/** What bench:exports and bench:logs measure of heavy work: both exports, then 20 s of a full push. */
const HEAVY_WORK = [
  { name: 'export audit rows', what: 'audit rows', path: '/api/admin/logs/export?type=local&format=json' },
  { name: 'export licenses', what: 'licenses', path: '/api/admin/licenses/export?format=json' },
  { name: 'push' },
];

/**
 * Measures the heavy work whose name `wanted` accepts (`export audit rows`, `export licenses`, `push`), each with
 * the probes; returns a function that prints and records them (see reportExport, reportPush) and counts the misses.
 */
export async function measureHeavyWork(base, token, portal, engine, wanted = () => true) {
  const identity = await activatedServer(base, token);
  const measured = [];
  for (const work of HEAVY_WORK.filter(({ name }) => wanted(name))) {
    if (work.path) {
      const figures = await measureExport(base, token, portal, work.path, identity);
      measured.push((results) => reportExport(work.what, figures, results));
      continue;
    }
    const licenseServer = await startLicenseServer();
    try {
      const figures = await measurePush(base, token, portal, licenseServer, identity);
      measured.push((results) => reportPush(engine, figures, results));
    } finally {
      await licenseServer.stop();
    }
  }
  return (results) => measured.reduce((missed, report) => missed + (report(results) ? 0 : 1), 0);
}
