// Latency of one call under concurrent clients (bench:lists, bench:logs), measured with wrk (-t1, one keep-alive
// connection per client, answers read whole, gzip accepted as a browser does), and the ceiling of that generator on
// this machine: the same wrk run against a bare node:http server answering the same bytes. A Node client in the
// benchmark's own process cost more CPU per call than the portal's list calls themselves on this 2-core machine, so
// its latencies measured the client; wrk's own cost is a few microseconds per call.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, start, stop, waitFor } from './processes.mjs';
import { wrk } from './wrk.mjs';

export { requireWrk } from './wrk.mjs';

/** wrk's report, one line: requests, non-2xx/3xx answers, socket errors, p50, p95, max (ms). */
const REPORTER = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %.3f %.3f %.3f\\n", summary.requests, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency.max / 1000))
end
`;
const reporterDir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
const REPORTER_FILE = join(reporterDir, 'report.lua');
writeFileSync(REPORTER_FILE, REPORTER);
process.on('exit', () => rmSync(reporterDir, { recursive: true, force: true }));

/**
 * GETs of `url` from `concurrency` connections for `seconds`, after a one-second warm-up run that is not counted
 * (then `settle()`, when given, is awaited): { requests, p50, p95, max } in ms, with `failure` describing refused
 * answers or dropped connections.
 */
export async function measureLatency(url, headers, { seconds, concurrency, settle }) {
  await runWrk(url, headers, { seconds: 1, concurrency });
  await settle?.();
  return runWrk(url, headers, { seconds, concurrency });
}

async function runWrk(url, headers, { seconds, concurrency }) {
  const args = ['-t1', `-c${concurrency}`, `-d${seconds}s`, '--timeout', '30s', '-s', REPORTER_FILE];
  const out = await wrk(args, { 'Accept-Encoding': 'gzip', ...headers }, url);
  const match = out.match(/RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/);
  if (!match) throw new Error(`wrk said:\n${out}`);
  const [requests, refused, dropped, p50, p95, max] = match.slice(1).map(Number);
  const { pathname, search } = new URL(url);
  const failure = !requests
    ? `${pathname}${search}: no answer within ${seconds} s`
    : refused || dropped
      ? `${pathname}${search}: ${refused} refused answers, ${dropped} socket errors`
      : null;
  return { requests, p50, p95, max, failure };
}

export const bearer = (token) => ({ Authorization: `Bearer ${token}` });

/**
 * The generator's ceiling for an answer like `url`'s: its bytes fetched once, then the same wrk run against a bare
 * node:http server answering exactly them, in its own process.
 */
export async function clientCeiling(url, headers, { seconds, concurrency }) {
  const response = await fetch(url, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), 'bench-ceiling-'));
  const file = join(dir, 'body');
  writeFileSync(file, bytes);
  const contentType = response.headers.get('content-type') ?? 'application/json; charset=utf-8';
  const server = start(process.execPath, [join(ROOT, 'bench/support/fixed-body-servers.cjs'), 'bare-body', file, contentType]);
  try {
    const port = await waitFor('the bare server', async () => Number(server.output().match(/LISTENING (\d+)/)?.[1]) || null, 30_000);
    const { p50, p95 } = await measureLatency(`http://127.0.0.1:${port}/`, {}, { seconds, concurrency });
    return {
      p50,
      p95,
      text: `bare node:http, same wrk run, ${(bytes.length / 1024).toFixed(1)} kB: p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`,
    };
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU seconds the whole machine has spent busy (every core; /proc/stat). */
function machineBusySeconds() {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

/**
 * Waits (at most `maxMs`) until the machine uses under a fifth of a core over a second: the portal's start-up work,
 * and the work a call leaves running behind it (an exact total counted in the background, in the database server or
 * the SQLite read worker), are over. Returns the seconds waited.
 */
export async function untilIdle(maxMs = 300_000) {
  const started = Date.now();
  if (!existsSync('/proc/stat')) return 0;
  let before = machineBusySeconds();
  while (Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = machineBusySeconds();
    if (now - before < 0.2) break;
    before = now;
  }
  return Math.round((Date.now() - started) / 1000);
}
