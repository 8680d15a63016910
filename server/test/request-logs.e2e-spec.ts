import { once } from 'node:events';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { clientAborts } from '../src/common/all-exceptions.filter';
import { createTestDatabase, TestDatabase } from './support/databases';
import { eventually } from './support/distribution';
import { PortalProcess, startPortalProcess } from './support/portal-process';
import { rowsOf } from './support/process-database';
import { ADMIN, startTestApp, TestApp } from './support/test-app';

type Line = Record<string, unknown>;

/** The JSON lines a portal process wrote (the start-up box aside). */
function linesOf(portal: PortalProcess): Line[] {
  return portal
    .output()
    .split('\n')
    .flatMap((text) => {
      if (!text.startsWith('{')) return [];
      try {
        return [JSON.parse(text) as Line];
      } catch {
        return [];
      }
    });
}

const accessRows = (portal: PortalProcess, requestId: string) =>
  linesOf(portal).filter((line) => line.context === 'AccessLog' && line.reqId === requestId);

async function adminToken(portal: PortalProcess): Promise<string> {
  const login = await fetch(`${portal.base}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await login.json()) as { data: { token: string } }).data.token;
}

/** Every access row the portal stored, through an export (which stores what its writer holds first). */
async function exportedPaths(portal: PortalProcess, token: string): Promise<string[]> {
  const exported = await fetch(`${portal.base}/api/admin/logs/export?type=access`, { headers: { Authorization: `Bearer ${token}` } });
  expect(exported.status).toBe(200);
  return ((await exported.json()) as Array<{ access: { path: string } }>).map((entry) => entry.access.path);
}

/**
 * Sends a request's head with `Expect: 100-continue`, waits until the server has taken the request (its 100
 * Continue), sends part of the body it announced, and closes the connection.
 */
async function abortMidBody(port: number, path: string, headers: Record<string, string>, contentType: string, part: string) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  const head = Object.entries({ ...headers, 'Content-Type': contentType, 'Content-Length': '100000', Expect: '100-continue' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`);
  let received = '';
  await new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes('100 Continue')) resolve();
    }),
  );
  socket.write(part);
  socket.destroy();
}

describe(`request ids, access rows on stdout, clients that go away (${process.env.TEST_DB})`, () => {
  describe('a portal process', () => {
    let database: TestDatabase;
    let running: PortalProcess | null = null;
    beforeEach(async () => (database = await createTestDatabase()));
    afterEach(async () => {
      running?.cleanup();
      running = null;
      await database.drop();
    });
    const start = (env: Record<string, string>) =>
      startPortalProcess({ ...env, ...(database.url ? { DATABASE_URL: database.url } : {}) }).then((started) => (running = started));

    it('with ACCESS_LOG_OUTPUT=stdout writes each access row as one JSON line on stdout, with its request id, and none to the database', async () => {
      const portal = await start({ ACCESS_LOG_OUTPUT: 'stdout' });
      const before = Date.now();
      const response = await fetch(`${portal.base}/api/settings`, { headers: { 'X-Request-Id': 'row-1', 'User-Agent': 'request-logs' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe('row-1');
      await eventually('the row is on stdout', () => accessRows(portal, 'row-1').length > 0);
      const [row, ...more] = accessRows(portal, 'row-1');
      expect(more).toEqual([]);
      expect(row).toMatchObject({
        level: 'INFO',
        method: 'GET',
        route: '/api/settings',
        path: '/api/settings',
        status: 200,
        user_id: null,
        user_email: null,
        ip_address: '127.0.0.1',
        user_agent: 'request-logs',
        msg: expect.stringMatching(/^GET \/api\/settings 200 \(\d+ ms\)$/),
      });
      expect(row.duration_ms).toEqual(expect.any(Number));
      expect(row.bytes_out).toEqual(expect.any(Number));
      expect(Date.parse(String(row.time))).toBeGreaterThanOrEqual(before - 1000);

      // A signed-in request's row names the user; an id a client may not set is replaced by one of the portal's.
      const token = await adminToken(portal);
      const listed = await fetch(`${portal.base}/api/admin/logs/access`, {
        headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'a b' },
      });
      const id = listed.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
      await eventually('the signed-in row is on stdout', () => accessRows(portal, id).length === 1);
      expect(accessRows(portal, id)[0]).toMatchObject({
        route: '/api/admin/logs/access',
        user_id: expect.any(Number),
        user_email: ADMIN.email,
      });

      expect(await exportedPaths(portal, token)).toEqual([]);
      const [{ n }] = await rowsOf(database, portal.dataDir, 'SELECT COUNT(*) AS n FROM access_logs');
      expect(Number(n)).toBe(0);
    });

    it("with ACCESS_LOG_OUTPUT=both writes the line, whatever LOG_LEVEL says of the app's own lines, and stores the row", async () => {
      const portal = await start({ ACCESS_LOG_OUTPUT: 'both', LOG_LEVEL: 'error' });
      const response = await fetch(`${portal.base}/api/settings`, { headers: { 'X-Request-Id': 'row-2' } });
      expect(response.headers.get('x-request-id')).toBe('row-2');
      await eventually('the row is on stdout', () => accessRows(portal, 'row-2').length > 0);
      expect(accessRows(portal, 'row-2')).toEqual([expect.objectContaining({ path: '/api/settings', status: 200 })]);
      expect(await exportedPaths(portal, await adminToken(portal))).toContain('/api/settings');
    });

    it('logs a client that goes away mid-body once, at debug level with its request id, and no error', async () => {
      const portal = await start({ LOG_LEVEL: 'debug' });
      await abortMidBody(portal.port, '/api/login', { 'X-Request-Id': 'gone-1' }, 'application/json', '{"email":"');
      await abortMidBody(portal.port, '/api/register', { 'X-Request-Id': 'gone-2' }, 'application/json', '{"first_name":"A');
      const gone = (id: string) => linesOf(portal).filter((line) => line.reqId === id && line.context === 'Exceptions');
      await eventually('both are logged', () => gone('gone-1').length > 0 && gone('gone-2').length > 0);
      expect(gone('gone-1')).toEqual([
        expect.objectContaining({ level: 'DEBUG', msg: expect.stringMatching(/^POST \/api\/login: the client went away .*; 1 so far\)$/) }),
      ]);
      expect(gone('gone-2')).toEqual([
        expect.objectContaining({
          level: 'DEBUG',
          msg: expect.stringMatching(/^POST \/api\/register: the client went away .*; 2 so far\)$/),
        }),
      ]);
      expect(linesOf(portal).filter((line) => line.level === 'ERROR' || line.level === 'FATAL')).toEqual([]);
    });
  });

  describe('in this process', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp()));
    afterAll(() => t.close());

    it('counts a client that goes away mid-body, answers nothing, and serves on', async () => {
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const before = clientAborts.total;
      await abortMidBody(port, '/api/login', {}, 'application/json', '{"email":"');
      await eventually('the abort is counted', () => clientAborts.total === before + 1);
      await t.api().get('/api/settings').expect(200);
      expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    });
  });
});
