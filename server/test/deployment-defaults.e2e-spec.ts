import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../src/config/app-config';
import { RemoteLogsService } from '../src/modules/logs/remote-logs.service';
import { createVersion, eventually, postFile, postVersion, someBytes, uploadFile } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid } from './support/licensing';
import { concrete, registeredRoutes } from './support/routes';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** What a portal does out of the box, and behind the settings a deployment gives it (TRUST_PROXY, ALLOWED_HOSTS, …). */
describe(`deployment defaults (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let client: { token: string; id: number };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    client = await t.signUpClient();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  /** Runs `use` against another portal started with `env`, closing it afterwards. */
  async function withPortal(env: Record<string, string>, use: (portal: TestApp) => Promise<void>): Promise<void> {
    const portal = await startTestApp(env);
    try {
      await use(portal);
    } finally {
      await portal.close();
    }
  }

  /** The client address in the activation log of this server's call (what the log holds is stored first). */
  async function loggedAddress(portal: TestApp, uid: string): Promise<string> {
    await portal.app.get(RemoteLogsService).flush();
    const rows: Array<{ ip_address: string | null }> = await portal.dataSource.query(
      'SELECT ip_address FROM remote_logs WHERE server_uid = ?',
      [uid],
    );
    expect(rows).toHaveLength(1);
    return rows[0].ip_address!;
  }

  describe('Cache-Control', () => {
    /** Answers that anyone may keep: the same for every caller, and the handler says for how long. */
    const CACHEABLE = new Set(['/api/license-server/public-key', '/api/license-server/test-script.tar.gz']);

    it('every answer to a signed-in GET without a path parameter says no-store', async () => {
      const routes = registeredRoutes(t.app).filter(
        (route) => route.method === 'GET' && !route.path.includes(':') && !CACHEABLE.has(route.path) && !route.path.startsWith('/api/docs'),
      );
      expect(routes.length).toBeGreaterThan(20);
      for (const route of routes) {
        const token = route.path.startsWith('/api/admin/') ? admin : client.token;
        const response = await t.api().get(concrete(route.path)).set(bearer(token));
        expect({ route: route.path, cacheControl: response.headers['cache-control'] }).toEqual({
          route: route.path,
          cacheControl: 'no-store',
        });
      }
    });

    it('and so do errors, and caller-dependent answers under a path id', async () => {
      const license = await issueLicense(t);
      for (const response of [
        await t.api().get('/api/admin/users').expect(401),
        await t.api().get('/api/admin/users').set(bearer(client.token)).expect(403),
        await t.api().get(`/api/admin/licenses/${license.id}`).set(bearer(admin)).expect(200),
        await t.api().get('/api/nothing-here').expect(404),
      ])
        expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers that are the same for everyone keep their own caching', async () => {
      const key = await t.api().get('/api/license-server/test-script.tar.gz').expect(200);
      expect(key.headers['cache-control']).toBe('public, max-age=300');
    });
  });

  describe('client address (TRUST_PROXY)', () => {
    /** The address the portal records for an activation call that carries these headers. */
    async function recordedAddress(portal: TestApp, headers: Record<string, string>): Promise<string> {
      const license = await issueLicense(portal);
      const uid = serverUid();
      await callLicenseServer(portal, 'activate', { license_key: license.license_key, server_uid: uid }).set(headers).expect(200);
      return loggedAddress(portal, uid);
    }
    // What nginx sends with `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`: whatever the client
    // claimed, then the address nginx saw.
    const throughOneProxy = { 'X-Forwarded-For': '198.51.100.66, 203.0.113.7' };

    it('unset: the socket address; forwarded headers are ignored', async () => {
      expect(await recordedAddress(t, throughOneProxy)).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    });

    it.each([
      ['1', '203.0.113.7'],
      ['loopback', '203.0.113.7'],
      ['127.0.0.1/8, ::1', '203.0.113.7'],
      ['2', '198.51.100.66'],
      ['true', '198.51.100.66'],
    ])('TRUST_PROXY=%s: the client is %s', async (trustProxy, expected) => {
      await withPortal({ TRUST_PROXY: trustProxy }, async (portal) => {
        expect(await recordedAddress(portal, throughOneProxy)).toBe(expected);
      });
    });
  });

  describe("behind the compose file's nginx (docker/nginx.conf) with the compose file's TRUST_PROXY", () => {
    const freePort = () =>
      new Promise<number>((resolve) => {
        const server = createServer().listen(0, '127.0.0.1', () => {
          const { port } = server.address() as AddressInfo;
          server.close(() => resolve(port));
        });
      });

    /** Runs docker/nginx.conf as it is, only pointed at `upstreamPort` and listening on a free local port. */
    async function startNginx(upstreamPort: number): Promise<{ url: string; process: ChildProcess }> {
      const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
      const port = await freePort();
      const site = readFileSync(join(REPO_ROOT, 'docker/nginx.conf'), 'utf8')
        // Both instances' lines, pointed at the one portal of the test.
        .replace(/server portal-\d:3000/g, `server 127.0.0.1:${upstreamPort}`)
        .replace('listen 80;', `listen 127.0.0.1:${port};`);
      const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${dir}/${name};`).join(' ');
      writeFileSync(
        join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {} http { access_log off; ${temp} ${site} }`,
      );
      const nginx = spawn('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
      const url = `http://127.0.0.1:${port}`;
      await eventually('nginx to listen', async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true);
      return { url, process: nginx };
    }

    it('records the address nginx saw, not the one the client claims', async () => {
      const compose = parse(readFileSync(join(REPO_ROOT, 'docker/compose.yaml'), 'utf8'), { merge: true }) as {
        services: Record<string, { environment: Record<string, string> }>;
      };
      const trustProxy = compose.services['portal-1'].environment.TRUST_PROXY;
      await withPortal({ TRUST_PROXY: trustProxy }, async (portal) => {
        const { port } = portal.app.getHttpServer().address() as AddressInfo;
        const nginx = await startNginx(port);
        try {
          const license = await issueLicense(portal);
          const uid = serverUid();
          await request(nginx.url)
            .post('/api/license-server/activate')
            .set('X-Forwarded-For', '198.51.100.66')
            .send({ license_key: license.license_key, server_uid: uid, nonce: 'nonce-through-nginx-0001' })
            .expect(200);
          expect(await loggedAddress(portal, uid)).toBe('127.0.0.1');
        } finally {
          nginx.process.kill();
        }
      });
    });
  });

  describe('download links (PUBLIC_URL, ALLOWED_HOSTS)', () => {
    it('with ALLOWED_HOSTS, a link only for a listed host; another Host gets a 400 and no link', async () => {
      await withPortal({ ALLOWED_HOSTS: 'portal.example.test, downloads.example.test:8443' }, async (portal) => {
        const version = await createVersion(portal, '1.0.0');
        const file = await uploadFile(portal, { version_id: version.id, name: 'streamhub_1.0.0_amd64.deb' });
        const customer = await portal.signUpClient();
        const link = (host: string) => portal.api().post(`/api/download/${file.id}/link`).set(bearer(customer.token)).set('Host', host);

        const listed = await link('Downloads.Example.test:8443').expect(200);
        expect(listed.body.data.url).toMatch(new RegExp(`^http://Downloads\\.Example\\.test:8443/api/download/${file.id}/signed\\?`));
        for (const host of ['evil.example.test', 'portal.example.test:444', 'evil.test/phish?']) {
          const refused = await link(host).expect(400);
          expect(refused.body.message).toMatch(/not one the portal serves/);
          expect(JSON.stringify(refused.body)).not.toContain('signature');
        }
      });
    });
  });

  describe('payment provider', () => {
    it('tells the admin that payments are a sandbox; customers may not ask', async () => {
      const response = await t.api().get('/api/admin/orders/payment-provider').set(bearer(admin)).expect(200);
      expect(response.body).toEqual({ success: true, data: { name: 'sandbox', sandbox: true } });
      await t.api().get('/api/admin/orders/payment-provider').set(bearer(client.token)).expect(403);
    });
  });

  describe('uploaded file names are read as UTF-8', () => {
    it('on the version upload', async () => {
      const response = await postVersion(
        t,
        admin,
        { version: '7.0.0', release_date: '2025-06-01' },
        { bytes: someBytes(64), name: 'ünï-7.0.0.zip' },
      );
      expect(response.status).toBe(201);
      expect(response.body.data.file_name).toBe('ünï-7.0.0.zip');
    });

    it('on the distribution file upload', async () => {
      const version = await createVersion(t, '7.1.0');
      const response = await postFile(t, admin, {
        version_id: version.id,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(64),
        name: 'strëamhub_7.1.0_amd64.deb',
      });
      expect(response.status).toBe(201);
      expect(response.body.data.file_name).toBe('strëamhub_7.1.0_amd64.deb');
    });
  });
});
