import { get as httpGet, IncomingMessage } from 'node:http';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, TestDatabase } from './support/databases';
import { startPortalProcess } from './support/portal-process';
import { accessRowsOf } from './support/access-rows';
import { rowsOf } from './support/process-database';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

const isMariadb = process.env.TEST_DB === 'mariadb';

async function json(response: Response): Promise<{ data: Record<string, unknown> } & Record<string, unknown>> {
  return (await response.json()) as { data: Record<string, unknown> } & Record<string, unknown>;
}

describe(`faults (${process.env.TEST_DB})`, () => {
  describe('SIGTERM', () => {
    let database: TestDatabase;
    beforeAll(async () => (database = await createTestDatabase()));
    afterAll(() => database.drop());

    it('drains: health says so, the download in flight completes, new connections are refused, and batched rows are written', async () => {
      const portal = await startPortalProcess({ SHUTDOWN_DELAY_SECONDS: '3', ...(database.url ? { DATABASE_URL: database.url } : {}) });
      try {
        const token = ((await json(await fetch(`${portal.base}/api/admin/login`, post(ADMIN)))).data.token as string) ?? '';
        const auth = { Authorization: `Bearer ${token}` };
        const version = new FormData();
        version.set('version', '9.0.0');
        version.set('release_date', '2025-06-01');
        const created = await json(await fetch(`${portal.base}/api/admin/upload`, { method: 'POST', headers: auth, body: version }));
        const bytes = randomBytes(8 * 1024 * 1024);
        const upload = new FormData();
        upload.set('version_id', String(created.data.id));
        upload.set('os_type', 'linux');
        upload.set('architecture', 'x64');
        upload.set('file', new Blob([bytes]), 'streamhub-9.0.0.tar.gz');
        const file = await json(
          await fetch(`${portal.base}/api/admin/distribution-files`, { method: 'POST', headers: auth, body: upload }),
        );
        expect(file.data.id).toBeDefined();

        // A download that reads slowly: its first bytes arrive, then the client pauses (backpressure).
        const response = await new Promise<IncomingMessage>((done) =>
          httpGet(`${portal.base}/api/download/${file.data.id}`, { headers: auth }, done),
        );
        expect(response.statusCode).toBe(200);
        const chunks: Buffer[] = [];
        const first = await new Promise<Buffer>((done) => response.once('data', done));
        chunks.push(first);
        response.pause();
        // Right before the signal: an action whose audit row is still in the batched writer's queue.
        await fetch(`${portal.base}/api/admin/users`, post({ email: 'last-words@portal.test', password: 'last-words-1' }, auth));

        portal.kill('SIGTERM');
        for (;;) {
          const health = await fetch(`${portal.base}/api/health`);
          if (health.status === 503 && (await json(health)).status === 'draining') break;
        }
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const ended = new Promise((done) => response.once('end', done));
        response.resume();
        await ended;
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

        expect(await portal.exited).toBe(0);
        await expect(
          new Promise((done, fail) => createConnection(portal.port, '127.0.0.1').once('connect', done).once('error', fail)),
        ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
        const audit = await rowsOf(database, portal.dataDir, "SELECT action FROM audit_logs WHERE action = 'user.create'");
        expect(audit).toHaveLength(1);
        const downloads = (await accessRowsOf(database, portal.dataDir)).filter(
          (row) => row.path === `/api/download/${String(file.data.id)}`,
        );
        expect(downloads.map((row) => row.status)).toEqual([200]);
        expect(portal.output()).toContain('SIGTERM: draining');
      } finally {
        portal.cleanup();
      }
    });
  });

  describe('SIGTERM on one of two instances under load', () => {
    let database: TestDatabase;
    beforeAll(async () => (database = await createTestDatabase()));
    afterAll(() => database.drop());

    it('answers every request A took until it said it was draining, stores their access rows, then refuses cleanly; B keeps serving', async () => {
      const shared = {
        SHUTDOWN_DELAY_SECONDS: '1',
        JWT_SECRET: randomBytes(48).toString('base64url'),
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      };
      const a = await startPortalProcess(shared);
      const b = await startPortalProcess({ ...shared, DATA_DIR: a.dataDir });
      try {
        const token = ((await json(await fetch(`${a.base}/api/admin/login`, post(ADMIN)))).data.token as string) ?? '';
        /** One request on a connection of its own (as a balancer's new connection): its status, or the socket error's code. */
        const call = (base: string, agent: string) =>
          new Promise<number | string>((done) => {
            const request = httpGet(
              `${base}/api/admin/users?limit=5`,
              { agent: false, headers: { ...bearer(token), 'User-Agent': agent } },
              (response) => response.resume().once('end', () => done(response.statusCode ?? 0)),
            );
            request.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
          });
        const outcomes = { a: [] as Array<number | string>, b: [] as Array<number | string> };
        // A balancer sends to A until A's health says it is draining, to B throughout.
        let aDraining = false;
        let sent = 0;
        const loop = async (name: 'a' | 'b', base: string) => {
          while (name === 'a' ? !aDraining : !aDraining || outcomes.b.length < 20)
            outcomes[name].push(await call(base, `sigterm-${name}-${++sent}`));
        };
        const clients = [...Array.from({ length: 4 }, () => loop('a', a.base)), loop('b', b.base)];
        while (outcomes.a.length < 40) await new Promise((resolve) => setImmediate(resolve));
        a.kill('SIGTERM');
        for (;;) {
          const health = await fetch(`${a.base}/api/health`);
          if (health.status === 503 && (await json(health)).status === 'draining') break;
        }
        aDraining = true;
        await Promise.all(clients);
        expect(await a.exited).toBe(0);

        // Every request A took was answered, B answered throughout, and A now refuses connections cleanly.
        expect(outcomes.a.filter((outcome) => outcome !== 200)).toEqual([]);
        expect(outcomes.b.filter((outcome) => outcome !== 200)).toEqual([]);
        expect(await call(a.base, 'sigterm-after')).toBe('ECONNREFUSED');
        expect(await call(b.base, 'sigterm-after')).toBe(200);
        // Every request A answered has its access-log row: the batched writer was flushed before A exited.
        const rows = (await accessRowsOf(database, a.dataDir)).filter((row) => row.user_agent?.startsWith('sigterm-a-'));
        expect(rows).toHaveLength(outcomes.a.length);
      } finally {
        b.cleanup();
        a.cleanup();
      }
    });
  });

  // Only a database server can go away: SQLite is part of the process.
  if (isMariadb)
    describe('the database going away (MariaDB)', () => {
      /** A TCP relay in front of MariaDB that can be cut and restored, so only this app loses its database. */
      let relay: Server;
      let relayPort: number;
      const sockets = new Set<Socket>();
      const listen = () => new Promise<void>((done) => relay.listen(relayPort, '127.0.0.1', done));
      let t: TestApp;
      let database: TestDatabase;

      beforeAll(async () => {
        relay = createServer((client) => {
          const upstream = createConnection(3306, '127.0.0.1');
          for (const socket of [client, upstream]) {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
            socket.on('error', () => socket.destroy());
          }
          client.pipe(upstream).pipe(client);
        });
        await new Promise<void>((done) => relay.listen(0, '127.0.0.1', done));
        relayPort = (relay.address() as { port: number }).port;
        database = await createTestDatabase();
        t = await startTestApp({ DATABASE_URL: database.url!.replace('127.0.0.1:3306', `127.0.0.1:${relayPort}`) });
      });
      afterAll(async () => {
        await t.close();
        await database.drop();
        relay.close();
      });

      it('answers 503 with a message while it is gone, and recovers by itself when it is back', async () => {
        const admin = await t.adminToken();
        await t.api().get('/api/admin/users').set(bearer(admin)).expect(200);

        // Stop accepting and cut what is open (close() alone would wait for the pool's connections to end).
        relay.close();
        for (const socket of sockets) socket.destroy();
        for (let i = 0; i < 2; i++) {
          // The first call meets a connection that was cut, the second one a refused new connection: both 503.
          const during = await t.api().get('/api/admin/users').set(bearer(admin));
          expect(during.status).toBe(503);
          expect(during.body).toEqual({ statusCode: 503, message: 'The database is unavailable. Please try again in a few seconds.' });
          expect(during.headers['retry-after']).toBe('5');
        }
        const health = await t.api().get('/api/health');
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({ status: 'error', database: 'down' });

        await listen();
        for (;;) {
          const after = await t.api().get('/api/admin/users').set(bearer(admin));
          if (after.status === 200) break;
          expect(after.status).toBe(503);
        }
        await t.api().get('/api/health').expect(200);
        expect(t.statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
      });
    });
});

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
