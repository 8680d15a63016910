#!/usr/bin/env node
// Download benchmark: the portal's GET /api/download/{id} against baselines measured in the same run:
//   node http  a bare node:http server piping the same files from disk with default stream settings
//   nginx      nginx with sendfile, serving the same files: the machine's and the load generator's ceiling
//   portal     the built portal (SQLite, temporary DATA_DIR), the files uploaded through its API, downloaded
//              with a bearer token (each download authorised, counted and logged, as in production)
// Loads: 20 concurrent downloads of a 256 MB file (curl clients, so the load generator costs little CPU), and
// many small concurrent downloads (wrk -t1 -c50: autocannon tops out near 2,100 req/s on a 32 KB answer, so every
// server would look alike). Each small-file figure is printed beside nginx's, the ceiling of wrk on this machine;
// a figure within 10 % of it measures the generator rather than the server, and is flagged so.
// S3 run (BENCH_S3=0 skips it): s3rver in a child process holds the big file; the portal with STORAGE_DRIVER=s3
// proxying it against a bare node:http server streaming the same object with the AWS SDK's defaults.
// Targets: big-file and small-file throughput ≥ 0.8 × node http; S3 proxy ≥ 0.8 × the bare S3 stream; peak RSS
// growth < 100 MB during 20 big downloads (disk and S3).
// Needs the built server (npm run build) and wrk. BENCH_ROUNDS (default 3; medians compared), BENCH_DURATION
// (seconds per small-file run, default 10), BENCH_BIG_MB (default 256), BENCH_SMALL_KB (default 32) and
// BENCH_S3_ROUNDS (default 1) set the size. Results also go to bench/results/downloads.json (see support/results.mjs).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  api,
  freePort,
  MAIN,
  median,
  portalEnv,
  readLoopDelay,
  requireBuiltServer,
  resetLoopDelay,
  ROOT,
  sleep,
  start,
  stop,
  waitFor,
} from './support/processes.mjs';
import { describeStalls, machineStalls } from './support/machine-stalls.mjs';
import { benchResults } from './support/results.mjs';
import { requireWrk, wrk } from './support/wrk.mjs';

const NGINX = '/usr/sbin/nginx';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const BIG_BYTES = Number(process.env.BENCH_BIG_MB ?? 256) * 1024 * 1024;
const SMALL_BYTES = Number(process.env.BENCH_SMALL_KB ?? 32) * 1024;
const BIG_CONCURRENCY = 20;
const SMALL_CONNECTIONS = 50;
const S3_ROUNDS = Math.max(1, Number(process.env.BENCH_S3_ROUNDS ?? 1));
const WITH_S3 = process.env.BENCH_S3 !== '0';
/** BENCH_ONLY=s3: the S3 run alone (after a change to the S3 driver). */
const ONLY_S3 = process.env.BENCH_ONLY === 's3';
const S3_BUCKET = 'portal-bench';
/** A figure this close to the ceiling (nginx under the same wrk load) measures the generator, not the server. */
const NEAR_CEILING = 0.9;
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-password' };
const TARGETS = { ratio: 0.8, rssGrowthMb: 100, loopHeldMs: 50 };
const BIG_NAME = 'streamhub_2.1.0_amd64.deb';
const SMALL_NAME = 'streamhub-small.tar.gz';

requireBuiltServer();
requireWrk();
const results = benchResults('downloads');

const cleanups = [];

/** A file of random bytes, written in 8 MB pieces; returns its SHA-256. */
async function makeFile(path, size) {
  const handle = await open(path, 'w', 0o644);
  const hash = createHash('sha256');
  for (let written = 0; written < size;) {
    const piece = randomBytes(Math.min(8 * 1024 * 1024, size - written));
    hash.update(piece);
    await handle.write(piece);
    written += piece.length;
  }
  await handle.close();
  return hash.digest('hex');
}

function sha256OfFile(path) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** VmRSS of a process, in bytes. */
function rssOf(pid) {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return match ? Number(match[1]) * 1024 : 0;
}

const TICKS_PER_SECOND = 100;
/** CPU seconds (user + system) a process has used, or null once it is gone. nginx's workers are its master's children: not counted. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 20 ms until stopped; returns the peak. */
function rssSampler(pid) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended
    }
  }, 20);
  return { stop: () => (clearInterval(timer), peak) };
}

async function startBare(folder) {
  const server = start(process.execPath, [join(ROOT, 'bench/support/file-server.cjs'), folder]);
  const port = await waitFor('the node http server', async () => Number(server.output().match(/LISTENING (\d+)/)?.[1]) || null, 30_000);
  const base = `http://127.0.0.1:${port}`;
  return { process: server, pid: server.child.pid, big: `${base}/${BIG_NAME}`, small: `${base}/${SMALL_NAME}`, headers: {} };
}

async function startNginx(folder, work) {
  if (!existsSync(NGINX)) return null;
  const port = await freePort();
  const prefix = join(work, 'nginx');
  mkdirSync(prefix, { recursive: true });
  const config = join(prefix, 'nginx.conf');
  writeFileSync(
    config,
    `worker_processes 1;
daemon off;
user root;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${folder};
  }
}
`,
  );
  const server = start(NGINX, ['-p', prefix, '-c', config]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor('nginx', async () => (await fetch(`${base}/${SMALL_NAME}`)).ok, 30_000);
  return { process: server, pid: server.child.pid, big: `${base}/${BIG_NAME}`, small: `${base}/${SMALL_NAME}`, headers: {}, workers: 1 };
}

/** The built portal on a fresh SQLite database; a version and both files uploaded through the API. */
async function startPortal(folder, work, extraEnv = {}, label = 'portal') {
  const dataDir = join(work, `${label}-data`);
  const port = await freePort();
  const portal = start(
    process.execPath,
    [MAIN],
    portalEnv(
      { port, dataDir, admin: ADMIN },
      {
        MAX_UPLOAD_BYTES: String(BIG_BYTES + 1024 * 1024),
        ...extraEnv,
      },
    ),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the portal', async () => (await fetch(`${base}/api/health`)).ok);
  const { data } = await api(base, 'POST', '/api/admin/login', ADMIN);
  const token = data.token;
  const version = await api(base, 'POST', '/api/admin/upload', { version: '2.1.0', release_date: '2025-06-01', is_latest: true }, token);

  const upload = async (name) => {
    const form = new FormData();
    form.append('version_id', String(version.data.id));
    form.append('os_type', 'linux');
    form.append('architecture', 'x64');
    // A file-backed Blob: the 256 MB body streams from disk, as a browser sends it.
    form.append('file', await openAsBlob(join(folder, name)), name);
    return (await api(base, 'POST', '/api/admin/distribution-files', form, token)).data;
  };
  const idle = rssOf(portal.child.pid);
  const sampler = rssSampler(portal.child.pid);
  const started = Date.now();
  const big = await upload(BIG_NAME);
  const uploadSeconds = (Date.now() - started) / 1000;
  const uploadPeak = sampler.stop();
  const small = await upload(SMALL_NAME);
  return {
    process: portal,
    pid: portal.child.pid,
    big: `${base}/api/download/${big.id}`,
    small: `${base}/api/download/${small.id}`,
    headers: { Authorization: `Bearer ${token}` },
    files: { big, small },
    count: async (id) => (await api(base, 'GET', `/api/download/${id}/info`, null, token)).data.download_count,
    upload: { seconds: uploadSeconds, rssGrowth: uploadPeak - idle, hash: big.file_hash },
  };
}

/** One curl download to a file or /dev/null; resolves with curl's byte count, HTTP status and, on failure, its error. */
function curl(url, headers, output = '/dev/null') {
  const args = ['-s', '-o', output, '-w', '%{http_code} %{size_download} %{exitcode} %{errormsg}'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    // 'close', not 'exit': the process can end before its output has been read.
    child.on('close', (code, signal) => {
      if (!out.trim())
        return resolve({ status: 0, size: 0, exitCode: code, error: `curl ended by ${signal ?? `exit ${code}`} without a report` });
      const [status, size, exitCode, ...error] = out.trim().split(' ');
      resolve({ status: Number(status), size: Number(size), exitCode: Number(exitCode), error: error.join(' ') });
    });
  });
}

/**
 * BIG_CONCURRENCY simultaneous full downloads of the big file; MB/s over the whole batch and the server's RSS growth.
 * One untimed download first: this machine's kernel reclaims idle page cache within seconds, and every server
 * should be measured reading a file from memory, not whichever one happened to be read last.
 */
async function bigRun(target) {
  await curl(target.big, target.headers);
  const before = rssOf(target.pid);
  const sampler = rssSampler(target.pid);
  const started = process.hrtime.bigint();
  const results = await Promise.all(Array.from({ length: BIG_CONCURRENCY }, () => curl(target.big, target.headers)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peak = sampler.stop();
  const bad = results.filter((r) => r.status !== 200 || r.size !== BIG_BYTES);
  if (bad.length) {
    const what = bad.map((r) => `HTTP ${r.status}, ${r.size} bytes, curl exit ${r.exitCode} ${r.error}`.trim());
    throw new Error(`${bad.length} of ${BIG_CONCURRENCY} big downloads incomplete from ${target.big}: ${what.join('; ')}`);
  }
  return { mbps: (BIG_BYTES * BIG_CONCURRENCY) / seconds / 1e6, seconds, rssGrowth: peak - before, peak };
}

/** wrk's time figures (e.g. 812.00us, 12.34ms, 1.02s) in milliseconds. */
function wrkMs(text) {
  const [, value, unit] = text.match(/([\d.]+)(us|ms|s|m)/);
  return Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[unit];
}

/** Small-file downloads with wrk (one thread, SMALL_CONNECTIONS connections) for `duration` seconds. */
async function smallRun(target, duration = DURATION) {
  // How long the server's event loop was held at a time under this load (a Node server measures its own).
  await resetLoopDelay(target.process);
  const machine = await machineStalls();
  await machine.reset();
  const cpuBefore = cpuOf(target.pid);
  const args = ['-t1', `-c${SMALL_CONNECTIONS}`, `-d${duration}s`, '--latency'];
  return wrk(args, target.headers, target.small).then(async (out) => {
    const answered = Number(out.match(/(\d+) requests in/)?.[1]);
    const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
    if (!Number.isFinite(answered) || !Number.isFinite(rps)) throw new Error(`wrk said:\n${out}`);
    const socketErrors = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
    const p99 = out.match(/^\s+99%\s+(\S+)/m);
    const cpuAfter = cpuOf(target.pid);
    const stalls = await machine.read();
    machine.stop();
    await sleep(600);
    return {
      loopMaxMs: readLoopDelay(target.process)?.max ?? NaN,
      stalls,
      rps,
      // CPU time per answer (user + system): what the server costs, whatever else loads the machine.
      cpuUs: cpuBefore === null || cpuAfter === null ? NaN : ((cpuAfter - cpuBefore) * 1e6) / answered,
      mbps: (rps * SMALL_BYTES) / 1e6,
      p99: p99 ? wrkMs(p99[1]) : NaN,
      answered,
      // At most one request per connection is cut off when the run ends.
      sent: answered + SMALL_CONNECTIONS,
      non2xx:
        Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0) +
        (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
    };
  });
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The S3 run's baseline: a bare node:http server streaming objects from the store with the SDK's defaults. */
async function startBareS3(endpoint, key) {
  const server = start(process.execPath, [join(ROOT, 'bench/support/s3-file-server.cjs'), endpoint, S3_BUCKET], S3_CREDENTIALS);
  const port = await waitFor(
    'the node S3 stream server',
    async () => Number(server.output().match(/LISTENING (\d+)/)?.[1]) || null,
    30_000,
  );
  return { process: server, pid: server.child.pid, big: `http://127.0.0.1:${port}/${key}`, headers: {} };
}

// s3rver's fixed credentials, given the way a deployment gives them: through the SDK's standard variables.
const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/** The stored object holding the big file (the portal named it), found by size. */
async function bigObjectKey(endpoint) {
  const listing = await (await fetch(`${endpoint}/${S3_BUCKET}?list-type=2`)).text();
  const objects = [...listing.matchAll(/<Key>([^<]+)<\/Key>[\s\S]*?<Size>(\d+)<\/Size>/g)];
  const found = objects.find(([, , size]) => Number(size) === BIG_BYTES);
  if (!found) throw new Error(`No object of ${BIG_BYTES} bytes in the bucket:\n${listing}`);
  return found[1];
}

/** Medians of one target's runs. */
const medianOf = (runs, field) => median(runs.map((run) => run[field]));
/** The median of per-round ratios of `name` to `base`. */
const ratioOf = (runs, name, base, kind, field) =>
  median(runs.get(name)[kind].map((run, i) => run[field] / runs.get(base)[kind][i][field]));
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'portal-bench-downloads-'));
  chmodSync(work, 0o755);
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  const folder = join(work, 'files');
  mkdirSync(folder, { mode: 0o755 });
  console.log(
    `Download benchmark: ${BIG_CONCURRENCY} concurrent downloads of a ${mb(BIG_BYTES)} file (curl), ` +
      `wrk -t1 -c${SMALL_CONNECTIONS} on a ${SMALL_BYTES / 1024} KB file for ${DURATION} s, ` +
      `${ROUNDS} round(s) (median shown), Node ${process.version}, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
  );
  const bigHash = await makeFile(join(folder, BIG_NAME), BIG_BYTES);
  await makeFile(join(folder, SMALL_NAME), SMALL_BYTES);
  if (ONLY_S3) {
    const checks = await s3Runs(folder, work, bigHash);
    checks
      .slice(2)
      .forEach(([label, ok, value]) =>
        results.add({ figure: label, value: ok ? 1 : 0, unit: 'check', target: { op: '==', value: 1 }, note: value }),
      );
    for (const [label, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}: ${value}`);
    return checks.some(([, ok]) => !ok);
  }

  const targets = [{ name: 'node http', target: await startBare(folder) }];
  const nginx = await startNginx(folder, work);
  if (nginx) targets.push({ name: 'nginx sendfile', target: nginx });
  else console.log(`  (nginx not installed at ${NGINX}: its sendfile baseline and the generator's ceiling are skipped)`);
  const portal = await startPortal(folder, work);
  targets.push({ name: 'portal', target: portal, portal: true });
  console.log(
    `Upload of the big file through the portal API: ${portal.upload.seconds.toFixed(1)} s ` +
      `(${(BIG_BYTES / portal.upload.seconds / 1e6).toFixed(0)} MB/s), portal RSS growth ${mb(portal.upload.rssGrowth)}, ` +
      `SHA-256 ${portal.upload.hash === bigHash ? 'matches' : 'DIFFERS'}`,
  );

  // Correctness first: the portal serves the exact bytes.
  const check = join(work, 'check.bin');
  await curl(portal.big, portal.headers, check);
  const servedHash = await sha256OfFile(check);
  rmSync(check);
  console.log(`Portal download SHA-256 ${servedHash === bigHash ? 'matches the file' : 'DIFFERS from the file'}\n`);
  let portalBigDownloads = 1;

  const runs = new Map(targets.map(({ name }) => [name, { big: [], small: [] }]));
  let portalSmall = { answered: 0, sent: 0, non2xx: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`Round ${round}:`);
    for (const entry of targets) {
      const big = await bigRun(entry.target);
      if (entry.portal) portalBigDownloads += BIG_CONCURRENCY + 1;
      const warm = await smallRun(entry.target, Math.min(2, DURATION));
      const small = await smallRun(entry.target);
      if (entry.portal) {
        for (const run of [warm, small]) {
          portalSmall = {
            answered: portalSmall.answered + run.answered,
            sent: portalSmall.sent + run.sent,
            non2xx: portalSmall.non2xx + run.non2xx,
          };
        }
      }
      runs.get(entry.name).big.push(big);
      runs.get(entry.name).small.push(small);
      console.log(
        `  ${entry.name.padEnd(15)} big ${big.mbps.toFixed(0).padStart(6)} MB/s (RSS +${mb(big.rssGrowth)})   ` +
          `small ${fmt(small.rps).padStart(7)} req/s ${small.mbps.toFixed(0).padStart(5)} MB/s p99 ${small.p99.toFixed(1)} ms${Number.isFinite(small.cpuUs) && !entry.target.workers ? ` CPU ${small.cpuUs.toFixed(0)} µs/answer` : ''}` +
          `${Number.isFinite(small.loopMaxMs) ? `, event loop held ≤ ${small.loopMaxMs.toFixed(0)} ms` : ''}; ${describeStalls(small.stalls)}`,
      );
    }
  }

  const ceiling = nginx ? medianOf(runs.get('nginx sendfile').small, 'rps') : null;
  const ceilingText = ceiling ? `nginx ${fmt(ceiling)} req/s` : undefined;
  const nearCeiling = (rps) =>
    ceiling && rps >= NEAR_CEILING * ceiling ? ` (within 10 % of the ceiling: limited by wrk, not the server)` : '';
  console.log(`\nMedians (ratios are medians of the per-round ratios to node http; small-file ceiling: ${ceilingText ?? 'unknown'}):`);
  for (const { name } of targets) {
    const r = runs.get(name);
    const smallRps = medianOf(r.small, 'rps');
    console.log(
      `  ${name.padEnd(15)} big ${medianOf(r.big, 'mbps').toFixed(0).padStart(6)} MB/s ${ratioOf(runs, name, 'node http', 'big', 'mbps').toFixed(2)} ×   ` +
        `small ${fmt(smallRps).padStart(7)} req/s ${ratioOf(runs, name, 'node http', 'small', 'rps').toFixed(2)} ×` +
        `${ceiling ? ` = ${(smallRps / ceiling).toFixed(2)} of the ceiling` : ''}   ` +
        `peak RSS growth ${mb(Math.max(...r.big.map((x) => x.rssGrowth)))}${name === 'nginx sendfile' ? '' : nearCeiling(smallRps)}`,
    );
  }

  // Every download counted: the big ones exactly; the small ones between answered and sent (timed runs cut some off).
  const bigCount = await portal.count(portal.files.big.id);
  const smallCount = await portal.count(portal.files.small.id);
  await stop(portal.process);
  const portalRuns = runs.get('portal');
  const bigRatio = ratioOf(runs, 'portal', 'node http', 'big', 'mbps');
  const smallRatio = ratioOf(runs, 'portal', 'node http', 'small', 'rps');
  const portalSmallRps = medianOf(portalRuns.small, 'rps');
  const nodeSmallRps = medianOf(runs.get('node http').small, 'rps');
  const rssGrowth = Math.max(...portalRuns.big.map((x) => x.rssGrowth));
  const loopHeld = Math.max(...portalRuns.small.map((x) => x.loopMaxMs));
  const r = (n) => Number(n.toFixed(3));
  results.add({
    figure: 'disk big file: portal / node http (MB/s)',
    value: r(bigRatio),
    unit: '×',
    target: { op: '>=', value: TARGETS.ratio },
    note: `portal ${medianOf(portalRuns.big, 'mbps').toFixed(0)} MB/s, ${BIG_CONCURRENCY} × ${mb(BIG_BYTES)}`,
  });
  results.add({
    figure: `disk small file (${SMALL_BYTES / 1024} KB, wrk): portal / node http (req/s)`,
    value: r(smallRatio),
    unit: '×',
    target: { op: '>=', value: TARGETS.ratio },
    ceiling: ceilingText,
    note: `portal ${fmt(portalSmallRps)} req/s, node http ${fmt(nodeSmallRps)} req/s${nearCeiling(portalSmallRps)}`,
  });
  const cpuPortal = medianOf(portalRuns.small, 'cpuUs');
  const cpuNode = medianOf(runs.get('node http').small, 'cpuUs');
  results.add({
    figure: 'disk small file: CPU per answer, node http / portal',
    value: r(cpuNode / cpuPortal),
    unit: '×',
    note: `portal ${cpuPortal.toFixed(0)} µs, node http ${cpuNode.toFixed(0)} µs per answer (steadier than rates on a loaded machine)`,
  });
  results.add({ figure: 'disk small file: portal p99', value: r(medianOf(portalRuns.small, 'p99')), unit: 'ms' });
  results.add({
    figure: `disk: portal peak RSS growth, ${BIG_CONCURRENCY} big downloads`,
    value: r(rssGrowth / 1024 / 1024),
    unit: 'MB',
    target: { op: '<', value: TARGETS.rssGrowthMb },
  });
  const checks = [
    [`big-file throughput ≥ ${TARGETS.ratio} × node http`, bigRatio >= TARGETS.ratio, `${bigRatio.toFixed(2)} ×`],
    [
      `small-file downloads ≥ ${TARGETS.ratio} × node http (wrk; ceiling ${ceilingText ?? 'unknown'})`,
      smallRatio >= TARGETS.ratio,
      `${smallRatio.toFixed(2)} ×${nearCeiling(portalSmallRps)}`,
    ],
    [
      `peak RSS growth < ${TARGETS.rssGrowthMb} MB with ${BIG_CONCURRENCY} big downloads`,
      rssGrowth < TARGETS.rssGrowthMb * 1024 * 1024,
      mb(rssGrowth),
    ],
    [
      `small downloads: the portal's event loop never held ≥ ${TARGETS.loopHeldMs} ms (counts and logs written in small batches)`,
      loopHeld < TARGETS.loopHeldMs,
      `${loopHeld.toFixed(0)} ms at most`,
    ],
    ['served bytes match the uploaded file (SHA-256)', servedHash === bigHash && portal.upload.hash === bigHash, servedHash.slice(0, 12)],
    ['every big download counted exactly once', bigCount === portalBigDownloads, `${bigCount} of ${portalBigDownloads}`],
    ['small downloads: only 2xx answers', portalSmall.non2xx === 0, `${portalSmall.non2xx} non-2xx or failed`],
    [
      'small downloads counted (between answered and sent)',
      smallCount >= portalSmall.answered && smallCount <= portalSmall.sent,
      `${smallCount} counted, ${portalSmall.answered} answered`,
    ],
  ];
  const asCheck = ([label, ok, value]) =>
    results.add({ figure: label, value: ok ? 1 : 0, unit: 'check', target: { op: '==', value: 1 }, note: value });
  checks.slice(3).forEach(asCheck);
  for (const { target } of targets) await stop(target.process);
  if (WITH_S3) {
    const s3 = await s3Runs(folder, work, bigHash);
    s3.slice(2).forEach(asCheck);
    checks.push(...s3);
  }

  console.log('\nTargets:');
  let failed = false;
  for (const [label, ok, value] of checks) {
    console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}: ${value}`);
    if (!ok) failed = true;
  }
  console.log(
    `\nNote: the small-file ratio compares a file server answering from memory-cached disk with an authenticated, ` +
      `counted and logged download (a session check per request; the count and log rows written once a second in one batch).`,
  );
  return failed;
}

/** The S3 run: the portal proxying the big file from s3rver against a bare node stream of the same object. */
async function s3Runs(folder, work, bigHash) {
  const directory = join(work, 's3');
  mkdirSync(directory);
  const store = start(process.execPath, [join(ROOT, 'bench/support/s3-server.cjs'), directory, S3_BUCKET]);
  cleanups.push(() => stop(store));
  const port = await waitFor('s3rver', async () => Number(store.output().match(/LISTENING (\d+)/)?.[1]) || null, 30_000);
  const endpoint = `http://127.0.0.1:${port}`;
  const portal = await startPortal(
    folder,
    work,
    { STORAGE_DRIVER: 's3', S3_BUCKET, S3_ENDPOINT: endpoint, S3_DOWNLOADS: 'proxy', ...S3_CREDENTIALS },
    'portal-s3',
  );
  const bare = await startBareS3(endpoint, await bigObjectKey(endpoint));
  console.log(
    `\nS3 run (s3rver at ${endpoint}; upload through the portal ${portal.upload.seconds.toFixed(1)} s, SHA-256 ` +
      `${portal.upload.hash === bigHash ? 'matches' : 'DIFFERS'}), ${S3_ROUNDS} round(s):`,
  );
  const check = join(work, 'check-s3.bin');
  await curl(portal.big, portal.headers, check);
  const servedHash = await sha256OfFile(check);
  rmSync(check);
  const runs = { bare: [], portal: [] };
  for (let round = 1; round <= S3_ROUNDS; round++) {
    for (const [name, target] of [
      ['bare', bare],
      ['portal', portal],
    ]) {
      const big = await bigRun(target);
      runs[name].push(big);
      console.log(
        `  ${(name === 'bare' ? 'node S3 stream' : 'portal (S3)').padEnd(15)} big ${big.mbps.toFixed(0).padStart(6)} MB/s (RSS +${mb(big.rssGrowth)})`,
      );
    }
  }
  await stop(portal.process);
  await stop(bare.process);
  const ratio = median(runs.portal.map((run, i) => run.mbps / runs.bare[i].mbps));
  const rssGrowth = Math.max(...runs.portal.map((x) => x.rssGrowth));
  results.add({
    figure: 'S3 big file: portal proxy / node S3 stream (MB/s)',
    value: Number(ratio.toFixed(3)),
    unit: '×',
    target: { op: '>=', value: TARGETS.ratio },
    note: `portal ${medianOf(runs.portal, 'mbps').toFixed(0)} MB/s, node S3 stream ${medianOf(runs.bare, 'mbps').toFixed(0)} MB/s, s3rver`,
  });
  results.add({
    figure: `S3: portal peak RSS growth, ${BIG_CONCURRENCY} big downloads`,
    value: Number((rssGrowth / 1024 / 1024).toFixed(1)),
    unit: 'MB',
    target: { op: '<', value: TARGETS.rssGrowthMb },
  });
  return [
    [`S3 proxy throughput ≥ ${TARGETS.ratio} × a bare node stream from the same store`, ratio >= TARGETS.ratio, `${ratio.toFixed(2)} ×`],
    [
      `S3 peak RSS growth < ${TARGETS.rssGrowthMb} MB with ${BIG_CONCURRENCY} big downloads`,
      rssGrowth < TARGETS.rssGrowthMb * 1024 * 1024,
      mb(rssGrowth),
    ],
    ['S3: served bytes match the uploaded file (SHA-256)', servedHash === bigHash, servedHash.slice(0, 12)],
  ];
}

main()
  .then(async (failed) => {
    results.save();
    for (const cleanup of cleanups.reverse()) await cleanup();
    process.exit(failed ? 1 : 0);
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
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    process.exit(1);
  });
