// What both benchmarks need to run servers as child processes and talk to the portal's API.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The built server's entry point; BENCH_MAIN names another build's (e.g. a copy of the one before a change, run on
 * the same machine and data for before/after figures).
 */
export const MAIN = process.env.BENCH_MAIN ?? join(ROOT, 'server/dist/server/src/main.js');

export function requireBuiltServer() {
  if (existsSync(MAIN)) return;
  console.error(`No built server at ${MAIN}. Run \`npm run build\` first.`);
  process.exit(1);
}

/**
 * Where the servers write their loop figures: in memory where the machine has a tmpfs. On disk, the monitor's write and
 * rename (on the server's own event loop) once held it 162 ms (ext4 flushes a file renamed over another), a stall the
 * benchmark then counted as the server's.
 */
const LOOP_FILES_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

const children = new Set();
const loopDirs = new Set();
process.on('exit', () => {
  children.forEach((child) => child.kill('SIGKILL'));
  loopDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** Starts a child process whose output is kept (for error messages) and which dies with this one. */
export function start(command, args, env = {}) {
  // BENCH_PROFILE_DIR: every Node server writes a V8 CPU profile there when it exits (to see where its time goes).
  if (process.env.BENCH_PROFILE_DIR && command === process.execPath) {
    args = ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`, ...args];
  }
  // Every Node server reports its event-loop delay (bench/support/loop-monitor.cjs; see readLoopDelay).
  let loopFile = null;
  if (command === process.execPath) {
    const dir = mkdtempSync(join(LOOP_FILES_DIR, 'bench-loop-'));
    loopDirs.add(dir);
    loopFile = join(dir, 'delay.json');
    args = ['--require', join(ROOT, 'bench/support/loop-monitor.cjs'), ...args];
    env = { ...env, BENCH_LOOP_FILE: loopFile };
  }
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('exit', () => children.delete(child));
  return { child, output: () => output, loopFile };
}

/**
 * A Node server's event-loop delay (ms: p50, p99, max) since the last `resetLoopDelay`, as the server itself measured
 * it; it is written twice a second, so wait a second after the phase ends before reading.
 */
export function readLoopDelay({ loopFile }) {
  if (!loopFile || !existsSync(loopFile)) return null;
  return JSON.parse(readFileSync(loopFile, 'utf8'));
}

/** Starts a new measuring phase of `readLoopDelay` (the server resets its histogram within half a second). */
export async function resetLoopDelay({ loopFile }) {
  if (!loopFile) return;
  writeFileSync(`${loopFile}.reset`, '');
  await waitFor('the event-loop histogram to reset', async () => !existsSync(`${loopFile}.reset`), 5_000);
}

export async function stop({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(what, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One API call: JSON or multipart body, optional bearer token; throws with the answer on failure. */
export async function api(base, method, path, body, token) {
  const isForm = body instanceof FormData;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(isForm || !body ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? (isForm ? body : JSON.stringify(body)) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Kills every child this process started (after a failure). */
export function killChildren() {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * The environment of a built portal a benchmark starts: production mode on 127.0.0.1:`port`, its own data folder,
 * `databaseUrl` (empty: SQLite in the data folder), a fresh JWT secret, `admin` as the seeded admin, no web client,
 * quiet logs; `extra` adds to or overrides it.
 */
export function portalEnv({ port, dataDir, databaseUrl = '', admin }, extra = {}) {
  return {
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PAYMENT_PROVIDER: 'sandbox',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    CLIENT_DIST: '',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
