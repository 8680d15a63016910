import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// s3rver ships no types; it is a real S3 protocol server running in this process.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
};

export interface MultipartUpload {
  key: string;
  uploadId: string;
  initiated: Date;
  /** Part files s3rver holds for it. */
  parts: number;
}

export interface TestS3 {
  endpoint: string;
  /** A client with s3rver's credentials. */
  client: S3Client;
  /** Environment a portal process needs to use `bucket` (s3rver's fixed credentials, through the SDK's own variables). */
  env(bucket: string): Record<string, string>;
  /** Every object's key in a bucket. */
  objects(bucket: string): Promise<string[]>;
  /** Multipart uploads that were initiated and neither completed nor aborted, read from s3rver's folder. */
  multipartUploads(bucket: string): Promise<MultipartUpload[]>;
  close(): Promise<void>;
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * s3rver on a free port with its own folder and buckets, plus the two multipart calls it answers NotImplemented /
 * 405 (ListMultipartUploads, AbortMultipartUpload), served here from the folder where s3rver keeps unfinished
 * uploads (`<bucket>/._S3rver_uploads/<uploadId>/{key,1,2,...}`), so the portal's start-up sweep can be tested
 * over real HTTP as AWS and MinIO answer it. Everything else is s3rver's own.
 */
export async function startTestS3(buckets: string[]): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const uploadsDir = (bucket: string) => join(directory, bucket, '._S3rver_uploads');

  const multipartUploads = async (bucket: string): Promise<MultipartUpload[]> => {
    const found: MultipartUpload[] = [];
    for (const uploadId of await readdir(uploadsDir(bucket)).catch(() => [])) {
      const dir = join(uploadsDir(bucket), uploadId);
      const keyFile = join(dir, 'key');
      const key = await readFile(keyFile, 'utf8').catch(() => null);
      if (key === null) continue;
      const parts = (await readdir(dir)).filter((name) => /^\d+$/.test(name)).length;
      found.push({ key, uploadId, initiated: (await stat(keyFile)).mtime, parts });
    }
    return found;
  };

  const s3rverListener = server.httpServer.listeners('request')[0] as RequestListener;
  server.httpServer.removeAllListeners('request');
  server.httpServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://s3');
    const [bucket, ...key] = url.pathname.slice(1).split('/');
    const answer = (status: number, body = '') => {
      response.writeHead(status, body ? { 'Content-Type': 'application/xml' } : {});
      response.end(body);
    };
    if (request.method === 'GET' && key.join('') === '' && url.searchParams.has('uploads')) {
      const prefix = url.searchParams.get('prefix') ?? '';
      void multipartUploads(bucket).then((uploads) => {
        const listed = uploads
          .filter((upload) => upload.key.startsWith(prefix))
          .map(
            (upload) =>
              `<Upload><Key>${xml(upload.key)}</Key><UploadId>${upload.uploadId}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
          );
        answer(
          200,
          `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${listed.join('')}</ListMultipartUploadsResult>`,
        );
      });
      return;
    }
    const uploadId = url.searchParams.get('uploadId');
    if (request.method === 'DELETE' && uploadId && /^[\w-]+$/.test(uploadId)) {
      request.resume();
      void rm(join(uploadsDir(bucket), uploadId), { recursive: true, force: true }).then(() => answer(204));
      return;
    }
    s3rverListener.call(server.httpServer, request, response);
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    client,
    env: (bucket) => ({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    multipartUploads,
    async objects(bucket) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((object) => object.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
