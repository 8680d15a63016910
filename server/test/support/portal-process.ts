import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ADMIN } from './test-app';

/** The built server (npm test builds it first: the contract check needs it). */
export const MAIN = resolve(__dirname, '../../dist/server/src/main.js');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export interface PortalProcess {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process printed. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
  cleanup(): void;
}

/**
 * A real portal process (production mode) on a free port, or on env.PORT (to start one again where it was);
 * shares DATA_DIR and database with others when given.
 */
export async function startPortalProcess(env: Record<string, string> = {}): Promise<PortalProcess> {
  if (!existsSync(MAIN)) throw new Error(`No built server at ${MAIN}: run \`npm run build\` first`);
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'portal-process-'));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PAYMENT_PROVIDER: 'sandbox',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      JWT_SECRET: env.JWT_SECRET ?? randomBytes(48).toString('base64url'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      CLIENT_DIST: '',
      LOG_LEVEL: 'log',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const base = `http://127.0.0.1:${port}`;
  const portal: PortalProcess = {
    base,
    port,
    dataDir,
    child,
    output: () => output,
    exited,
    kill: (signal = 'SIGTERM') => void child.kill(signal),
    cleanup: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The portal exited at start:\n${output}`);
    const up = await fetch(`${base}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return portal;
    await new Promise((done) => setTimeout(done, 100));
  }
}
