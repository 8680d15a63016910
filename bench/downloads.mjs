#!/usr/bin/env node
// Download benchmark: the portal's GET /api/download/{id} against baselines measured in the same run:
//   node http  a bare node:http server piping the same files from disk with default stream settings
//   nginx      nginx with sendfile, serving the same files (the machine's limit), when /usr/sbin/nginx exists
//   portal     the built portal (SQLite, temporary DATA_DIR), the files uploaded through its API, downloaded
//              with a bearer token (each download counted and logged, as in production)
// Loads: 20 concurrent downloads of a 256 MB file (curl clients, so the load generator costs little CPU), and
// many small concurrent downloads (autocannon, 50 connections). Prints MB/s, ratios to the node http baseline,
// and the portal's peak RSS growth while serving (from /proc/<pid>/status VmRSS).
// Targets: big-file and small-file throughput ≥ 0.8 × node http; peak RSS growth < 100 MB during the 20 big downloads.
// Needs the built server (npm run build). BENCH_ROUNDS (default 3; medians compared), BENCH_DURATION (seconds
// per small-file run, default 10), BENCH_BIG_MB (default 256) and BENCH_SMALL_KB (default 32) set the size.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, freePort, MAIN, median, requireBuiltServer, ROOT, sleep, start, stop, waitFor } from './support/processes.mjs';

const NGINX = '/usr/sbin/nginx';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const BIG_BYTES = Number(process.env.BENCH_BIG_MB ?? 256) * 1024 * 1024;
const SMALL_BYTES = Number(process.env.BENCH_SMALL_KB ?? 32) * 1024;
const BIG_CONCURRENCY = 20;
const SMALL_CONNECTIONS = 50;
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-password' };
const TARGETS = { ratio: 0.8, rssGrowthMb: 100 };
const BIG_NAME = 'streamhub_2.1.0_amd64.deb';
const SMALL_NAME = 'streamhub-small.tar.gz';

requireBuiltServer();

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
async function startPortal(folder, work) {
  const dataDir = join(work, 'portal-data');
  const port = await freePort();
  const portal = start(process.execPath, [MAIN], {
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PAYMENT_PROVIDER: 'sandbox',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CLIENT_DIST: '',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    MAX_UPLOAD_BYTES: String(BIG_BYTES + 1024 * 1024),
  });
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
    child.on('exit', (code, signal) => {
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

/** Small-file downloads with autocannon for DURATION seconds: requests and MB per second. */
function smallRun(target, duration = DURATION) {
  return new Promise((resolve, reject) =>
    autocannon({ url: target.small, connections: SMALL_CONNECTIONS, duration, headers: target.headers }, (error, result) => {
      if (error) return reject(error);
      resolve({
        rps: result.requests.average,
        mbps: result.throughput.average / 1e6,
        p99: result.latency.p99,
        answered: result.requests.total,
        sent: result.requests.sent,
        non2xx: result.non2xx + result.errors + result.timeouts,
      });
    }),
  );
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'portal-bench-downloads-'));
  chmodSync(work, 0o755);
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  const folder = join(work, 'files');
  mkdirSync(folder, { mode: 0o755 });
  console.log(
    `Download benchmark: ${BIG_CONCURRENCY} concurrent downloads of a ${mb(BIG_BYTES)} file (curl), ` +
      `${SMALL_CONNECTIONS} connections on a ${SMALL_BYTES / 1024} KB file for ${DURATION} s (autocannon), ` +
      `${ROUNDS} round(s) (median shown), Node ${process.version}\n`,
  );
  const bigHash = await makeFile(join(folder, BIG_NAME), BIG_BYTES);
  await makeFile(join(folder, SMALL_NAME), SMALL_BYTES);

  const targets = [{ name: 'node http', target: await startBare(folder) }];
  const nginx = await startNginx(folder, work);
  if (nginx) targets.push({ name: 'nginx sendfile', target: nginx });
  else console.log(`  (nginx not installed at ${NGINX}: its sendfile baseline is skipped)`);
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
          `small ${small.rps.toFixed(0).padStart(6)} req/s ${small.mbps.toFixed(0).padStart(5)} MB/s p99 ${small.p99} ms`,
      );
    }
  }

  const ratio = (name, kind, field) => median(runs.get(name)[kind].map((run, i) => run[field] / runs.get('node http')[kind][i][field]));
  console.log('\nMedians (ratios are medians of the per-round ratios to node http):');
  for (const { name } of targets) {
    const r = runs.get(name);
    console.log(
      `  ${name.padEnd(15)} big ${median(r.big.map((x) => x.mbps))
        .toFixed(0)
        .padStart(6)} MB/s ${ratio(name, 'big', 'mbps').toFixed(2)} ×   ` +
        `small ${median(r.small.map((x) => x.rps))
          .toFixed(0)
          .padStart(6)} req/s ${ratio(name, 'small', 'rps').toFixed(2)} ×   ` +
        `peak RSS growth ${mb(Math.max(...r.big.map((x) => x.rssGrowth)))}`,
    );
  }

  // Every download counted: the big ones exactly; the small ones between answered and sent (timed runs cut some off).
  await sleep(500);
  const bigCount = await portal.count(portal.files.big.id);
  const smallCount = await portal.count(portal.files.small.id);
  await stop(portal.process);
  const portalRuns = runs.get('portal');
  const bigRatio = ratio('portal', 'big', 'mbps');
  const smallRatio = ratio('portal', 'small', 'rps');
  const rssGrowth = Math.max(...portalRuns.big.map((x) => x.rssGrowth));
  const checks = [
    [`big-file throughput ≥ ${TARGETS.ratio} × node http`, bigRatio >= TARGETS.ratio, `${bigRatio.toFixed(2)} ×`],
    [`small-file downloads ≥ ${TARGETS.ratio} × node http`, smallRatio >= TARGETS.ratio, `${smallRatio.toFixed(2)} ×`],
    [
      `peak RSS growth < ${TARGETS.rssGrowthMb} MB with ${BIG_CONCURRENCY} big downloads`,
      rssGrowth < TARGETS.rssGrowthMb * 1024 * 1024,
      mb(rssGrowth),
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
  console.log('\nTargets:');
  let failed = false;
  for (const [label, ok, value] of checks) {
    console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${label}: ${value}`);
    if (!ok) failed = true;
  }
  console.log(
    `\nNote: the small-file ratio compares a file server answering from memory-cached disk with an authenticated, ` +
      `counted and logged download (session check, file lookup, count and log write per request).`,
  );
  for (const { target } of targets) await stop(target.process);
  return failed;
}

main()
  .then(async (failed) => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    process.exit(failed ? 1 : 0);
  })
  .catch(async (error) => {
    console.error(error);
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => undefined);
    process.exit(1);
  });
