import { randomBytes } from 'node:crypto';
import { get as httpGet, IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { createConnection as mysqlConnection } from 'mysql2/promise';
import { asBuffer, createVersion, eventually, sha256, someBytes, uploadFile } from './support/distribution';
import { AccessLogService } from '../src/modules/access-log/access-log.service';
import { accessRows } from './support/access-rows';
import { createTestDatabase, TestDatabase } from './support/databases';
import { startPortalProcess } from './support/portal-process';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

// better-sqlite3 ships no types; this is all the test needs of it.
type SqliteDatabase = { prepare(sql: string): { all(): unknown[] }; close(): void };
const Database = module.require('better-sqlite3') as new (path: string, options: { readonly: boolean }) => SqliteDatabase;

const today = () => new Date().toISOString().slice(0, 10);

/** The three records of downloads of one file, read from the database (not through the API, which stores what is held first). */
interface Recorded {
  count: number;
  logs: number;
  perDay: number;
}

const RECORDED_SQL = (fileId: number, version: string) => [
  `SELECT download_count AS n FROM distribution_files WHERE id = ${fileId}`,
  `SELECT COUNT(*) AS n FROM download_logs WHERE file_id = ${fileId}`,
  `SELECT COALESCE(SUM(value), 0) AS n FROM daily_stats WHERE metric = 'downloads_version' AND day = '${today()}' AND dimension = '${version}'`,
];

describe(`download counting (${process.env.TEST_DB})`, () => {
  describe('in batches', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp()));
    afterAll(async () => {
      expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
      await t.close();
    });

    const recorded = async (fileId: number, version: string): Promise<Recorded> => {
      const [count, logs, perDay] = await Promise.all(
        RECORDED_SQL(fileId, version).map(async (sql) => Number((await t.dataSource.query(sql))[0].n)),
      );
      return { count, logs, perDay };
    };

    it('holds exactly N in the file count, the per-day figures and the download log once the batch is written after N concurrent downloads', async () => {
      const version = await createVersion(t, '8.1.0');
      const bytes = someBytes(40_000);
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-8.1.0.tar.gz', bytes });
      const alice = await t.signUpClient();
      const n = 60;
      const responses = await Promise.all(
        Array.from({ length: n }, () => t.api().get(`/api/download/${file.id}`).set(bearer(alice.token)).buffer(true).parse(asBuffer)),
      );
      expect(responses.every((response) => response.status === 200 && sha256(response.body as Buffer) === file.file_hash)).toBe(true);
      // Written by the once-a-second flush, not by any read through the API: wait for it as a condition.
      await eventually('the batch holding the downloads is written', async () => (await recorded(file.id, '8.1.0')).count >= n);
      await eventually('the log rows are written', async () => (await recorded(file.id, '8.1.0')).logs >= n);
      // The per-day figures follow the log rows in a statement of their own.
      await eventually('the per-day figures are written', async () => (await recorded(file.id, '8.1.0')).perDay >= n);
      expect(await recorded(file.id, '8.1.0')).toEqual({ count: n, logs: n, perDay: n });
      // Resumes and HEADs add nothing.
      await t.api().get(`/api/download/${file.id}`).set(bearer(alice.token)).set('Range', 'bytes=10-19').expect(206);
      await t.api().head(`/api/download/${file.id}`).set(bearer(alice.token)).expect(200);
      const info = await t.api().get(`/api/download/${file.id}/info`).set(bearer(alice.token)).expect(200);
      expect(info.body.data.download_count).toBe(n);
      expect(await recorded(file.id, '8.1.0')).toEqual({ count: n, logs: n, perDay: n });
      // Answered before Nest's router, but logged as the route, with the user, like any API request.
      await t.app.get(AccessLogService).flush();
      const access = (await accessRows(t.dataSource)).filter((row) => row.path === `/api/download/${file.id}` && row.method === 'GET');
      expect(access.filter((row: { status: number }) => Number(row.status) === 200)).toHaveLength(n); // and the resume's 206
      expect(access[0]).toMatchObject({ route: '/api/download/:id', user_id: alice.id });
    });

    it('stops serving a deleted file at once, although its row was kept for the hot path', async () => {
      const admin = await t.adminToken();
      const version = await createVersion(t, '8.2.0');
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-8.2.0.zip', bytes: someBytes(3000) });
      await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(200);
      await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
      await t.api().get(`/api/download/${file.id}`).set(bearer(admin)).expect(404);
    });
  });

  describe('SIGTERM', () => {
    let database: TestDatabase;
    beforeAll(async () => (database = await createTestDatabase()));
    afterAll(() => database.drop());

    async function recordedIn(dataDir: string, fileId: number, version: string): Promise<Recorded> {
      const values: number[] = [];
      if (database.url) {
        const connection = await mysqlConnection(database.url);
        try {
          for (const sql of RECORDED_SQL(fileId, version))
            values.push(Number(((await connection.query(sql))[0] as Array<{ n: unknown }>)[0].n));
        } finally {
          await connection.end();
        }
      } else {
        const db = new Database(join(dataDir, 'portal.sqlite'), { readonly: true });
        try {
          for (const sql of RECORDED_SQL(fileId, version)) values.push(Number((db.prepare(sql).all()[0] as { n: unknown }).n));
        } finally {
          db.close();
        }
      }
      const [count, logs, perDay] = values;
      return { count, logs, perDay };
    }

    it('counts and logs every download in flight when the signal arrives, and those still held in memory, before the process exits', async () => {
      const portal = await startPortalProcess({ ...(database.url ? { DATABASE_URL: database.url } : {}) });
      try {
        const post = (body: unknown, headers: Record<string, string> = {}) => ({
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        const login = (await (await fetch(`${portal.base}/api/admin/login`, post(ADMIN))).json()) as { data: { token: string } };
        const auth = { Authorization: `Bearer ${login.data.token}` };
        const form = new FormData();
        form.set('version', '9.1.0');
        form.set('release_date', '2025-06-01');
        const version = (await (await fetch(`${portal.base}/api/admin/upload`, { method: 'POST', headers: auth, body: form })).json()) as {
          data: { id: number };
        };
        const bytes = randomBytes(4 * 1024 * 1024);
        const upload = new FormData();
        upload.set('version_id', String(version.data.id));
        upload.set('os_type', 'linux');
        upload.set('architecture', 'x64');
        upload.set('file', new Blob([bytes]), 'streamhub-9.1.0.tar.gz');
        const file = (await (
          await fetch(`${portal.base}/api/admin/distribution-files`, { method: 'POST', headers: auth, body: upload })
        ).json()) as { data: { id: number } };
        const url = `${portal.base}/api/download/${file.data.id}`;

        // Downloads that completed just before the signal: counted in memory, not yet written.
        const done = 5;
        for (let i = 0; i < done; i++)
          expect(Buffer.from(await (await fetch(url, { headers: auth })).arrayBuffer()).equals(bytes)).toBe(true);
        // Downloads in flight: their first bytes arrived, then the clients pause (backpressure) across the signal.
        const inFlight = 8;
        const responses = await Promise.all(
          Array.from({ length: inFlight }, () => new Promise<IncomingMessage>((resolve) => httpGet(url, { headers: auth }, resolve))),
        );
        const bodies = await Promise.all(
          responses.map((response) => {
            expect(response.statusCode).toBe(200);
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            return new Promise<Buffer[]>((resolve) =>
              response.once('data', () => {
                response.pause();
                resolve(chunks);
              }),
            );
          }),
        );

        portal.kill('SIGTERM');
        // The signal has arrived once health says 'draining' or new connections are refused.
        for (;;) {
          const status = await fetch(`${portal.base}/api/health`).then(
            (health) => health.status,
            () => 0,
          );
          if (status !== 200) break;
        }
        await Promise.all(
          responses.map((response) => {
            const ended = new Promise((resolve) => response.once('end', resolve));
            response.resume();
            return ended;
          }),
        );
        expect(bodies.every((chunks) => Buffer.concat(chunks).equals(bytes))).toBe(true);
        expect(await portal.exited).toBe(0);

        const total = done + inFlight;
        expect(await recordedIn(portal.dataDir, file.data.id, '9.1.0')).toEqual({ count: total, logs: total, perDay: total });
      } finally {
        portal.cleanup();
      }
    });
  });
});
