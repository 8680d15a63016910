import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config/app-config';
import { createTestDatabase, TestDatabase } from './support/databases';
import { eventually, sha256 } from './support/distribution';
import { freePort, PortalProcess, startPortalProcess } from './support/portal-process';
import { ADMIN } from './support/test-app';

/** docker/nginx.conf as it is, its two instances pointed at local processes, listening on a free local port. */
async function startNginx(ports: [number, number]): Promise<{ url: string; errors(): string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-failover-'));
  const port = await freePort();
  const site = readFileSync(join(REPO_ROOT, 'docker/nginx.conf'), 'utf8')
    .replace(/server portal-(\d):3000/g, (_, n: string) => `server 127.0.0.1:${ports[Number(n) - 1]}`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${dir}/${name};`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid; error_log ${dir}/error.log warn; events {} http { access_log off; ${temp} ${site} }`,
  );
  const nginx: ChildProcess = spawn('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await eventually('nginx to listen', async () => (await fetch(`${url}/nginx-health`).catch(() => null))?.ok === true);
  return {
    url,
    errors: () => readFileSync(join(dir, 'error.log'), 'utf8'),
    stop: () => {
      nginx.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const conf = readFileSync(join(REPO_ROOT, 'docker/nginx.conf'), 'utf8');
const [, maxFails, failTimeoutSeconds] = / max_fails=(\d+) fail_timeout=(\d+)s/.exec(conf)!.map(Number);

type Json = { data: Record<string, unknown> };

describe(`the compose file's nginx in front of two instances (${process.env.TEST_DB})`, () => {
  let database: TestDatabase | undefined;
  let a: PortalProcess | undefined;
  let b: PortalProcess | undefined;
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  afterAll(async () => {
    nginx?.stop();
    b?.cleanup();
    a?.cleanup();
    await database?.drop();
  });

  it('answers every request, reads and writes, when one instance is killed, and stops sending to it after max_fails', async () => {
    database = await createTestDatabase();
    // One database (SQLite: one DATA_DIR, which also holds the generated license signing key) and one JWT secret.
    const env = { JWT_SECRET: randomBytes(48).toString('base64url'), ...(database.url ? { DATABASE_URL: database.url } : {}) };
    a = await startPortalProcess(env);
    b = await startPortalProcess({ ...env, DATA_DIR: a.dataDir });
    nginx = await startNginx([a.port, b.port]);
    const through = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${nginx!.url}${path}`, init);
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    };
    const json = (body: Buffer) => JSON.parse(body.toString()) as Json;

    const login = await through('/api/admin/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${String(json(login.body).data.token)}` };
    // An upload through the proxy (request body unbuffered), to be downloaded through it.
    const version = new FormData();
    version.set('version', '1.0.0');
    version.set('release_date', '2025-06-01');
    const created = await through('/api/admin/upload', { method: 'POST', headers: auth, body: version });
    expect(created.status).toBe(201);
    const bytes = randomBytes(1_500_000);
    const upload = new FormData();
    upload.set('version_id', String(json(created.body).data.id));
    upload.set('os_type', 'linux');
    upload.set('architecture', 'x64');
    upload.set('file', new Blob([bytes]), 'streamhub-1.0.0.tar.gz');
    const file = await through('/api/admin/distribution-files', { method: 'POST', headers: auth, body: upload });
    expect(file.status).toBe(201);
    const fileId = String(json(file.body).data.id);

    /** A read, a write and a download, each through nginx; returns the statuses (and whether the bytes were right). */
    let users = 0;
    const round = async () => {
      const read = await through('/api/admin/users', { headers: auth });
      users += 1;
      const write = await through('/api/admin/users', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: `failover-${users}@portal.test`, password: `failover-pass-${users}` }),
      });
      const download = await through(`/api/download/${fileId}`, { headers: auth });
      return [read.status, write.status, download.status, sha256(download.body) === sha256(bytes)];
    };
    for (let i = 0; i < 5; i++) expect(await round()).toEqual([200, 201, 200, true]);

    a.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    const rounds = 20;
    for (let i = 0; i < rounds; i++) expect(await round()).toEqual([200, 201, 200, true]);
    const elapsedMs = Date.now() - killedAt;

    // nginx found the instance gone (refused connections, each passed on to the other instance) and took it out:
    // max_fails failures, then one more try each fail_timeout, instead of every other request of the 60.
    const refused = nginx.errors().match(new RegExp(`connect\\(\\) failed .*127\\.0\\.0\\.1:${a.port}`, 'g')) ?? [];
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(maxFails + Math.ceil(elapsedMs / (failTimeoutSeconds * 1000)));
    expect(nginx.errors()).toContain('upstream server temporarily disabled');
    expect(b.output()).not.toMatch(/\bERROR\b/);
  });
});
