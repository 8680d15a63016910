// Measures one streamed export: rows per second, the server's memory growth (RSS sampled every 50 ms from /proc), and
// how long the server keeps other requests waiting meanwhile, two ways: a probe asks /api/health every 100 ms during
// the export and keeps each answer's latency, and the server's own event-loop delay (perf_hooks, see loop-monitor.cjs).
import { readFileSync } from 'node:fs';
import { describeStalls, machineStalls } from './machine-stalls.mjs';
import { readLoopDelay, resetLoopDelay, sleep } from './processes.mjs';

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** /api/health's latencies (ms, sorted), asked every 100 ms until `until()` says stop. */
async function probeHealth(base, until) {
  const latencies = [];
  while (!until()) {
    const started = process.hrtime.bigint();
    const response = await fetch(`${base}/api/health`);
    await response.arrayBuffer();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * Streams `path` (a JSON export: one row per line) as the admin; returns rows, bytes, seconds, RSS growth and the
 * probe's figures, with the probe's p99 over 3 s before the export for comparison (what the machine's load alone costs).
 */
export async function measureExport(base, token, portal, path) {
  const pid = portal.child.pid;
  const idleUntil = Date.now() + 3_000;
  const idle = await probeHealth(base, () => Date.now() > idleUntil);
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  await resetLoopDelay(portal);
  const machine = await machineStalls();
  await machine.reset();
  let probing = true;
  const probe = probeHealth(base, () => !probing);
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  let rows = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  probing = false;
  const sorted = await probe;
  const stalls = await machine.read();
  machine.stop();
  clearInterval(sampler);
  // The server writes its histogram twice a second.
  await sleep(600);
  const loop = readLoopDelay(portal);
  // One line per row, plus the closing bracket's line.
  return {
    rows: rows - 1,
    bytes,
    seconds,
    rssGrowth: peak - baseline,
    probes: sorted.length,
    probeP99: percentile(sorted, 99) ?? 0,
    probeMax: sorted.at(-1) ?? 0,
    idleP99: percentile(idle, 99) ?? 0,
    loopP99: loop?.p99 ?? null,
    loopMax: loop?.max ?? null,
    stalls,
  };
}

/**
 * Prints the export's line against the targets (≥ 50,000 rows/s, RSS growth < 100 MB, health p99 < 50 ms) and adds
 * its figures to `results` (bench/support/results.mjs) when given; returns whether it passed.
 */
export function reportExport(what, e, results) {
  const rate = e.rows / e.seconds;
  const pass = rate >= 50_000 && e.rssGrowth < 100 * 1024 ** 2 && e.probeP99 < 50;
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  export of ${e.rows} ${what}: ${Math.round(rate)} rows/s (≥ 50,000), ` +
      `${(e.bytes / 1024 ** 2).toFixed(0)} MB in ${e.seconds.toFixed(1)} s, server RSS +${(e.rssGrowth / 1024 ** 2).toFixed(1)} MB (< 100), ` +
      `/api/health meanwhile p99 ${e.probeP99.toFixed(1)} ms (< 50), max ${e.probeMax.toFixed(1)} ms (${e.probes} probes; ` +
      `p99 ${e.idleP99.toFixed(1)} ms before the export); the server's event loop meanwhile: delay p99 ${e.loopP99} ms, max ${e.loopMax} ms; ` +
      describeStalls(e.stalls),
  );
  if (results) {
    results.add({ figure: `export of ${what}: rows/s`, value: Math.round(rate), unit: 'rows/s', target: { op: '>=', value: 50_000 } });
    results.add({
      figure: `export of ${what}: RSS growth`,
      value: +(e.rssGrowth / 1024 ** 2).toFixed(1),
      unit: 'MB',
      target: { op: '<', value: 100 },
    });
    results.add({
      figure: `export of ${what}: /api/health p99 meanwhile`,
      value: +e.probeP99.toFixed(1),
      unit: 'ms',
      target: { op: '<', value: 50 },
      note: `before the export: p99 ${e.idleP99.toFixed(1)} ms`,
    });
    results.add({ figure: `export of ${what}: event-loop delay max (in the server)`, value: e.loopMax, unit: 'ms' });
  }
  return pass;
}
