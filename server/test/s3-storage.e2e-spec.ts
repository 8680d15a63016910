import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FileStorage } from '../src/modules/storage/file-storage';
import { makeS3Client, S3Storage } from '../src/modules/storage/s3.storage';
import {
  asBuffer,
  countRows,
  createVersion,
  eventually,
  postFile,
  postVersion,
  sha256,
  someBytes,
  uploadFile,
} from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';
import { twoInstances } from './support/two-instances';

// s3rver ships no types; it is a real S3 protocol server running in this process.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
};

const MAX_UPLOAD_BYTES = 12 * 1024 * 1024;

/** An in-process S3 server on a free port with its own directory, and buckets made for the test. */
async function startS3(buckets: string[]) {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  // What the store was asked, so a test can wait for an upload to be under way (or aborted).
  const requests: string[] = [];
  server.httpServer.on('request', (request: IncomingMessage) => requests.push(`${request.method} ${request.url}`));
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials, given the way a deployment gives them: through the SDK's standard variables.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const client = makeS3Client({ bucket: '', endpoint, region: 'us-east-1', forcePathStyle: true, downloads: 'proxy', presignSeconds: 60 });
  return {
    endpoint,
    client,
    requests,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Every object in a bucket with its size. */
async function objects(client: S3Client, bucket: string): Promise<Record<string, number>> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return Object.fromEntries((page.Contents ?? []).map((object) => [object.Key!, object.Size!]));
}

async function objectBytes(client: S3Client, bucket: string, key: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.concat(await (answer.Body as Readable).toArray());
}

describe(`S3 storage (${process.env.TEST_DB})`, () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    s3 = await startS3(['portal-proxy', 'portal-redirect', 'portal-shared']);
  });
  afterAll(async () => {
    await s3?.close();
  });

  const s3Env = (bucket: string, downloads: 'proxy' | 'redirect') => ({
    STORAGE_DRIVER: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_DOWNLOADS: downloads,
    MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
  });
  const storageKeyOf = async (t: TestApp, table: 'versions' | 'distribution_files', id: number): Promise<string> =>
    (await t.dataSource.query(`SELECT storage_key FROM ${table} WHERE id = ?`, [id]))[0].storage_key;

  describe('proxy mode: the portal streams from the bucket', () => {
    const bucket = 'portal-proxy';
    let t: TestApp;
    let admin: string;
    let client: { token: string; id: number };
    let versionId: number;

    beforeAll(async () => {
      t = await startTestApp(s3Env(bucket, 'proxy'));
      admin = await t.adminToken();
      client = await t.signUpClient();
    });
    afterAll(async () => {
      expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
      await t.close();
    });

    it('stores a version file in the bucket with the size and SHA-256 that were uploaded (a multipart upload)', async () => {
      // Larger than one 8 MiB part, so lib-storage sends it as a multipart upload.
      const bytes = someBytes(9 * 1024 * 1024 + 123);
      const response = await postVersion(
        t,
        admin,
        { version: '3.0.0', release_date: '2025-06-01' },
        { bytes, name: 'streamhub-3.0.0.zip' },
      );
      expect(response.status).toBe(201);
      versionId = response.body.data.id;
      const key = await storageKeyOf(t, 'versions', versionId);
      expect(await objects(s3.client, bucket)).toEqual({ [key]: bytes.length });
      expect(sha256(await objectBytes(s3.client, bucket, key))).toBe(sha256(bytes));
    });

    it('stores a distribution file and serves it whole, by Range, to HEAD and to If-None-Match, counting one download', async () => {
      const bytes = someBytes(1_300_000);
      const file = await uploadFile(t, { version_id: versionId, name: 'streamhub_3.0.0_amd64.deb', bytes });
      const key = await storageKeyOf(t, 'distribution_files', file.id);
      expect(file).toMatchObject({ file_size: bytes.length, file_hash: sha256(bytes) });
      expect(sha256(await objectBytes(s3.client, bucket, key))).toBe(sha256(bytes));

      const whole = await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).buffer(true).parse(asBuffer).expect(200);
      expect(whole.body.equals(bytes)).toBe(true);
      expect(whole.headers).toMatchObject({
        etag: `"${file.file_hash}"`,
        'content-length': String(bytes.length),
        'accept-ranges': 'bytes',
        'content-disposition': expect.stringContaining('streamhub_3.0.0_amd64.deb'),
      });

      const small = await t
        .api()
        .get(`/api/download/${file.id}`)
        .set(bearer(client.token))
        .set('Range', 'bytes=10-19')
        .buffer(true)
        .parse(asBuffer);
      expect(small.status).toBe(206);
      expect(small.headers['content-range']).toBe(`bytes 10-19/${bytes.length}`);
      expect(small.body.equals(bytes.subarray(10, 20))).toBe(true);
      // Larger than one read chunk: streamed from a ranged GetObject.
      const large = await t
        .api()
        .get(`/api/download/${file.id}`)
        .set(bearer(client.token))
        .set('Range', 'bytes=1000-')
        .buffer(true)
        .parse(asBuffer);
      expect(large.status).toBe(206);
      expect(large.body.equals(bytes.subarray(1000))).toBe(true);

      const head = await t.api().head(`/api/download/${file.id}`).set(bearer(client.token)).expect(200);
      expect(head.headers).toMatchObject({ etag: `"${file.file_hash}"`, 'content-length': String(bytes.length) });
      await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).set('If-None-Match', `"${file.file_hash}"`).expect(304);
      await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).set('Range', `bytes=${bytes.length}-`).expect(416);

      const info = await t.api().get(`/api/download/${file.id}/info`).set(bearer(admin)).expect(200);
      expect(info.body.data.download_count).toBe(1);
      expect(await countRows(t, 'download_logs')).toBe(1);
      // Authorization still holds before any byte is read from the bucket.
      await t.api().get(`/api/download/${file.id}`).expect(401);
    });

    it('releases the store connection of every download whose client goes away mid-transfer', async () => {
      const bytes = someBytes(6 * 1024 * 1024);
      const file = await uploadFile(t, { version_id: versionId, name: 'streamhub_3.0.0_arm64.deb', bytes });
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      // More abandoned downloads than the SDK keeps connections (50): a leaked GetObject each would stall the next download.
      for (let round = 0; round < 60; round++) {
        await new Promise<void>((resolve, reject) => {
          const request = httpGet(
            { host: '127.0.0.1', port, path: `/api/download/${file.id}`, headers: bearer(client.token), agent: false },
            (response) => {
              response.once('data', () => {
                request.destroy();
                resolve();
              });
            },
          );
          request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
        });
      }
      const whole = await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).buffer(true).parse(asBuffer).expect(200);
      expect(sha256(whole.body)).toBe(sha256(bytes));
    });

    it('leaves no object and no row when an upload is refused: wrong type, too large, or invalid fields', async () => {
      const before = await objects(s3.client, bucket);
      const rows = await countRows(t, 'distribution_files');
      const versions = await countRows(t, 'versions');

      const wrongType = await postFile(t, admin, {
        version_id: versionId,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(5000),
        name: 'notes.txt',
      });
      expect(wrongType.status).toBe(415);
      // Beyond the limit after a full part has gone out: the multipart upload is aborted.
      const tooLarge = await postFile(t, admin, {
        version_id: versionId,
        os_type: 'linux',
        architecture: 'x64',
        bytes: someBytes(MAX_UPLOAD_BYTES + 1),
        name: 'big.deb',
      });
      expect(tooLarge.status).toBe(413);
      const tooLargeVersion = await postVersion(
        t,
        admin,
        { version: '3.0.1', release_date: '2025-06-01' },
        { bytes: someBytes(MAX_UPLOAD_BYTES + 1), name: 'big.zip' },
      );
      expect(tooLargeVersion.status).toBe(413);
      // Received in full, then refused by validation: the temporary object is removed.
      const invalid = await postFile(t, admin, {
        version_id: versionId,
        os_type: 'beos',
        architecture: 'x64',
        bytes: someBytes(5000),
        name: 'ok.deb',
      });
      expect(invalid.status).toBe(400);

      expect(await objects(s3.client, bucket)).toEqual(before);
      expect(await countRows(t, 'distribution_files')).toBe(rows);
      expect(await countRows(t, 'versions')).toBe(versions);
    });

    it('aborts the multipart upload and keeps no object or row when the client goes away mid-upload', async () => {
      const before = await objects(s3.client, bucket);
      const versions = await countRows(t, 'versions');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const boundary = '----portal-s3-test';
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/upload',
        headers: { ...bearer(admin), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': MAX_UPLOAD_BYTES },
      });
      request.on('error', () => undefined);
      const fields = { version: '3.0.2', release_date: '2025-06-01' };
      const head = Object.entries(fields).map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      request.write(`${head.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="aborted.zip"\r\n\r\n`);
      // More than one part, so a part is on its way to the store before the client goes away.
      request.write(someBytes(9 * 1024 * 1024));
      const sentBefore = s3.requests.length;
      await eventually('a part of the upload reached the store', () =>
        s3.requests.slice(sentBefore).some((line) => line.includes('partNumber=')),
      );
      const sentUntilGone = s3.requests.length;
      request.destroy();
      const since = () => s3.requests.slice(sentUntilGone);
      await eventually('the multipart upload was aborted', () => since().some((line) => line.includes('x-id=AbortMultipartUpload')));
      // Then the temporary key is deleted too (in case a single PutObject landed): the portal is done with the request.
      await eventually('the temporary key was deleted', () => since().some((line) => line.startsWith('DELETE') && line.includes('.part')));
      expect(await objects(s3.client, bucket)).toEqual(before);
      expect(await countRows(t, 'versions')).toBe(versions);
    });

    it("reports the stored files in System Health without taking this host's disk for the store", async () => {
      const health = (await t.api().get('/api/admin/system/health').set(bearer(admin)).expect(200)).body.data;
      expect(health.storage.file_count).toBeGreaterThan(0);
      expect(health.storage).toMatchObject({ free_bytes: null, total_bytes: null });
    });

    it('sweeps temporary objects a killed upload left behind, and keeps stored files', async () => {
      const storage = t.app.get(FileStorage) as S3Storage;
      const leftover = `tmp/${randomUUID()}.part`;
      await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: leftover, Body: someBytes(100) }));
      const stored = Object.keys(await objects(s3.client, bucket)).filter((key) => key !== leftover);
      await storage.sweep(0);
      expect(Object.keys(await objects(s3.client, bucket))).toEqual(stored);
    });

    it('removes the object when its file is deleted', async () => {
      const file = await uploadFile(t, { version_id: versionId, name: 'streamhub-3.0.0.x86_64.rpm', bytes: someBytes(4000) });
      const key = await storageKeyOf(t, 'distribution_files', file.id);
      expect(Object.keys(await objects(s3.client, bucket))).toContain(key);
      await t.api().delete(`/api/admin/distribution-files/${file.id}`).set(bearer(admin)).expect(200);
      expect(Object.keys(await objects(s3.client, bucket))).not.toContain(key);
    });
  });

  it('serves through instance B, byte for byte and by Range, what was uploaded through instance A (one database, one bucket)', async () => {
    const [a, b] = await twoInstances(s3Env('portal-shared', 'proxy'));
    try {
      const client = await a.signUpClient(); // signed in on A, served by B
      const version = await createVersion(a, '5.0.0');
      const bytes = someBytes(2_000_000);
      const file = await uploadFile(a, { version_id: version.id, name: 'streamhub_5.0.0_amd64.deb', bytes });
      const whole = await b.api().get(`/api/download/${file.id}`).set(bearer(client.token)).buffer(true).parse(asBuffer).expect(200);
      expect(sha256(whole.body)).toBe(sha256(bytes));
      const ranged = await b
        .api()
        .get(`/api/download/${file.id}`)
        .set(bearer(client.token))
        .set('Range', 'bytes=1000000-1999999')
        .buffer(true)
        .parse(asBuffer);
      expect(ranged.status).toBe(206);
      expect(ranged.body.equals(bytes.subarray(1_000_000, 2_000_000))).toBe(true);
      for (const t of [a, b]) expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    } finally {
      await b.close();
      await a.close();
    }
  });

  describe('redirect mode: a 302 to a presigned URL', () => {
    const bucket = 'portal-redirect';
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp(s3Env(bucket, 'redirect'));
    });
    afterAll(async () => {
      expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
      await t.close();
    });

    it('answers 302 to a short-lived URL that serves the bytes (and ranges of them), counted when issued', async () => {
      const admin = await t.adminToken();
      const client = await t.signUpClient();
      const version = await createVersion(t, '4.0.0');
      const bytes = someBytes(700_000);
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub_4.0.0_amd64.deb', bytes });

      const response = await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).redirects(0).expect(302);
      const location = new URL(response.headers.location);
      expect(location.origin).toBe(s3.endpoint);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
      const info = await t.api().get(`/api/download/${file.id}/info`).set(bearer(admin)).expect(200);
      expect(info.body.data.download_count).toBe(1);

      const fetched = await fetch(location);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-disposition')).toContain('streamhub_4.0.0_amd64.deb');
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
      const ranged = await fetch(location, { headers: { Range: 'bytes=100-199' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

      // HEAD needs no bytes: the portal answers it itself.
      const head = await t.api().head(`/api/download/${file.id}`).set(bearer(client.token)).redirects(0).expect(200);
      expect(head.headers.etag).toBe(`"${file.file_hash}"`);
      await t.api().get(`/api/download/${file.id}`).redirects(0).expect(401);
    });
  });
});
