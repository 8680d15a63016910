import { CreateMultipartUploadCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { ClientRequest, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { tempName } from '../src/modules/storage/temp-uploads';
import { createTestDatabase, TestDatabase } from './support/databases';
import { eventually, sha256 } from './support/distribution';
import { PortalProcess, startPortalProcess } from './support/portal-process';
import { rowsOf } from './support/process-database';
import { startTestS3, TestS3 } from './support/s3-server';
import { ADMIN } from './support/test-app';

/** What the uploads declare: far more than is ever sent before the kill. */
const DECLARED_BYTES = 64 * 1024 * 1024;
const CHUNK = randomBytes(1024 * 1024);

type Json = { data: Record<string, unknown> } & Record<string, unknown>;

async function call(portal: PortalProcess, path: string, init: RequestInit = {}): Promise<Json & { status: number }> {
  const response = await fetch(`${portal.base}${path}`, init);
  const body = (await response.json()) as Json;
  return { ...body, status: response.status };
}

async function adminToken(portal: PortalProcess): Promise<Record<string, string>> {
  const login = await call(portal, '/api/admin/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return { Authorization: `Bearer ${String(login.data.token)}` };
}

/**
 * A multipart upload that streams for as long as the test wants: its form fields, then the file's bytes a
 * chunk at a time through `more()`; it is never finished (the server is killed under it).
 */
function beginUpload(portal: PortalProcess, auth: Record<string, string>, path: string, fields: Record<string, string>, fileName: string) {
  const boundary = `----kill${randomBytes(8).toString('hex')}`;
  const request: ClientRequest = httpRequest(`${portal.base}${path}`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': DECLARED_BYTES },
  });
  request.on('error', () => undefined); // the server goes away mid-request: that is the point
  const head = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  request.write(`${head.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`);
  let sent = 0;
  return {
    /** Sends another chunk once the socket has taken the last one. */
    more: () =>
      new Promise<void>((done) => {
        sent += CHUNK.length;
        if (request.write(CHUNK)) done();
        else request.once('drain', done);
      }),
    sent: () => sent,
  };
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** The file store as the test sees it from outside the portal. */
interface Store {
  env: Record<string, string>;
  /** Stored objects (committed files), sorted. */
  stored(): Promise<string[]>;
  /** Uploads under way or left behind: temporary files, temporary objects, unfinished multipart uploads (with their bytes so far). */
  unfinished(): Promise<Array<{ name: string; bytes: number }>>;
  /** Puts there what the sweep must leave alone (another host's upload under way, a file not of ours); returns their names. */
  plantOthers(): Promise<string[]>;
  /** Puts there a whole temporary upload of the killed process, as a kill between taking its place and removing it leaves. */
  plantLeftover(pid: number): Promise<void>;
}

/** A temporary upload name of process `pid` on this host. */
const leftoverOf = (pid: number) => tempName().replace(/^([0-9a-f]{12})-\d+-/, `$1-${pid}-`);

/** A temporary upload of an instance on another host (whose host name hashes to something else). */
const otherHostsUpload = () => `0123456789ab-1-${randomUUID()}.part`;

function localStore(dataDir: string): Store {
  const root = join(dataDir, 'storage');
  return {
    env: {},
    stored: async () => filesUnder(root).filter((path) => !path.startsWith('.tmp/')),
    unfinished: async () =>
      filesUnder(root)
        .filter((path) => path.startsWith('.tmp/'))
        .map((name) => ({ name, bytes: statSync(join(root, name)).size })),
    plantOthers: async () => {
      const names = [`.tmp/${otherHostsUpload()}`, '.tmp/notes.txt'];
      mkdirSync(join(root, '.tmp'), { recursive: true });
      for (const name of names) writeFileSync(join(root, name), 'not this instance');
      return names.sort();
    },
    plantLeftover: async (pid) => writeFileSync(join(root, '.tmp', leftoverOf(pid)), 'whole upload'),
  };
}

function s3Store(s3: TestS3, bucket: string): Store {
  return {
    env: s3.env(bucket),
    stored: async () => (await s3.objects(bucket)).filter((key) => !key.startsWith('tmp/')),
    unfinished: async () => [
      ...(await s3.objects(bucket)).filter((key) => key.startsWith('tmp/')).map((name) => ({ name, bytes: 0 })),
      // s3rver writes a part's file as its bytes arrive: parts stored so far stand for the bytes received.
      ...(await s3.multipartUploads(bucket)).map((upload) => ({ name: upload.key, bytes: upload.parts })),
    ],
    plantOthers: async () => {
      const [object, multipart] = [`tmp/${otherHostsUpload()}`, `tmp/${otherHostsUpload()}`];
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: object, Body: 'not this instance' }));
      await s3.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: multipart }));
      return [object, multipart];
    },
    plantLeftover: async (pid) => {
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: `tmp/${leftoverOf(pid)}`, Body: 'whole upload' }));
    },
  };
}

describe(`SIGKILL during an upload (${process.env.TEST_DB})`, () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3(['portal-kill']);
  });
  afterAll(() => s3?.close());

  const cases: Array<[string, (dataDir: string) => Store, (received: Array<{ bytes: number }>) => boolean]> = [
    // Both temporary files exist and hold bytes.
    ['the local disk', localStore, (received) => received.length === 2 && received.every((file) => file.bytes > 0)],
    // lib-storage starts a multipart upload once it has a whole part (8 MiB): both are under way with a part stored.
    ['an S3 bucket', () => s3Store(s3, 'portal-kill'), (received) => received.length === 2 && received.every((upload) => upload.bytes > 0)],
  ];

  it.each(cases)(
    'on %s: after a restart no partial file, object, multipart upload or row remains, and the portal serves normally',
    async (_name, makeStore, underWay) => {
      const database: TestDatabase = await createTestDatabase();
      const dataDir = mkdtempSync(join(tmpdir(), 'portal-kill-'));
      const store = makeStore(dataDir);
      const env = {
        DATA_DIR: dataDir,
        MAX_UPLOAD_BYTES: String(256 * 1024 * 1024),
        JWT_SECRET: randomBytes(48).toString('base64url'),
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        ...store.env,
      };
      const counts = async () =>
        Object.fromEntries(
          await Promise.all(
            ['versions', 'distribution_files'].map(async (table) => [
              table,
              Number((await rowsOf(database, dataDir, `SELECT COUNT(*) AS n FROM ${table}`))[0].n),
            ]),
          ),
        );
      let portal = await startPortalProcess(env);
      try {
        // An earlier version with a file, which must come through untouched.
        let auth = await adminToken(portal);
        const version = new FormData();
        version.set('version', '1.0.0');
        version.set('release_date', '2025-06-01');
        const created = await call(portal, '/api/admin/upload', { method: 'POST', headers: auth, body: version });
        expect(created.status).toBe(201);
        const earlierBytes = randomBytes(300_000);
        const upload = new FormData();
        upload.set('version_id', String(created.data.id));
        upload.set('os_type', 'linux');
        upload.set('architecture', 'x64');
        upload.set('file', new Blob([earlierBytes]), 'streamhub-1.0.0.tar.gz');
        const earlier = await call(portal, '/api/admin/distribution-files', { method: 'POST', headers: auth, body: upload });
        expect(earlier.status).toBe(201);
        const storedBefore = await store.stored();
        expect(storedBefore).toHaveLength(1);
        const rowsBefore = await counts();

        // Two large uploads at once, a version with its file and a distribution file, each well under way when the process dies.
        const uploads = [
          beginUpload(portal, auth, '/api/admin/upload', { version: '2.0.0', release_date: '2025-07-01' }, 'streamhub-2.0.0.zip'),
          beginUpload(
            portal,
            auth,
            '/api/admin/distribution-files',
            { version_id: String(created.data.id), os_type: 'windows', architecture: 'x64' },
            'streamhub-1.0.0.exe',
          ),
        ];
        let received: Array<{ name: string; bytes: number }> = [];
        await eventually(
          'both uploads are being received',
          async () => {
            received = await store.unfinished();
            if (underWay(received)) return true;
            for (const one of uploads) if (one.sent() < DECLARED_BYTES / 2) await one.more();
            return false;
          },
          30_000,
        );
        // And still growing: the server is in the middle of receiving them.
        const bytesOf = (list: typeof received) => list.reduce((sum, one) => sum + one.bytes, 0);
        const firstSeen = bytesOf(received);
        await eventually(
          'the uploads grow',
          async () => {
            for (const one of uploads) if (one.sent() < DECLARED_BYTES - 2 * CHUNK.length) await one.more();
            return bytesOf(await store.unfinished()) > firstSeen;
          },
          30_000,
        );

        portal.kill('SIGKILL');
        expect(await portal.exited).toBe(null);
        expect(portal.child.signalCode).toBe('SIGKILL');
        // What the killed process left: the restart has something to clean up.
        expect((await store.unfinished()).length).toBeGreaterThan(0);
        expect(await counts()).toEqual(rowsBefore);
        const others = await store.plantOthers();
        await store.plantLeftover(portal.child.pid!);
        const unfinishedNames = async () => (await store.unfinished()).map((one) => one.name);

        portal = await startPortalProcess(env);
        // What the killed process left is gone; another instance's upload and a file not of ours are still there.
        expect(await unfinishedNames()).toEqual(others);
        expect(await store.stored()).toEqual(storedBefore);
        expect(await counts()).toEqual(rowsBefore);
        expect(portal.output()).toMatch(/Removed \d+ temporary upload\(s\) a stopped process left behind/);

        // Serving normally: the earlier file downloads byte for byte, and a new upload goes through.
        auth = await adminToken(portal);
        const download = await fetch(`${portal.base}/api/download/${String(earlier.data.id)}`, { headers: auth });
        expect(download.status).toBe(200);
        expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(earlierBytes));
        const again = new FormData();
        again.set('version', '2.0.0');
        again.set('release_date', '2025-07-01');
        again.set('file', new Blob([randomBytes(100_000)]), 'streamhub-2.0.0.zip');
        expect((await call(portal, '/api/admin/upload', { method: 'POST', headers: auth, body: again })).status).toBe(201);
        expect(await store.stored()).toHaveLength(2);
        expect(await unfinishedNames()).toEqual(others);
      } finally {
        portal.cleanup();
        rmSync(dataDir, { recursive: true, force: true });
        await database.drop();
      }
    },
    120_000,
  );
});
