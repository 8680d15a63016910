import express from 'express';
import { get, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressedResponses, GZIP_WHOLE_MAX } from './compressed-responses';

/** JSON of about `bytes` bytes. */
const jsonOf = (bytes: number) => ({
  items: Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => ({ id: i, name: `item ${i} of many` })),
});

describe('compressed responses', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.use(compressedResponses());
    app.get('/small', (_request, response) => response.json({ ok: true }));
    app.get('/page', (_request, response) => response.json(jsonOf(12_000)));
    app.get('/large', (_request, response) => response.json(jsonOf(GZIP_WHOLE_MAX + 10_000)));
    app.get('/parts', (_request, response) => {
      response.type('json');
      response.write('[');
      response.end(`${JSON.stringify(jsonOf(12_000))}]`);
    });
    app.get('/no-transform', (_request, response) => response.set('Cache-Control', 'no-transform').json(jsonOf(12_000)));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The bytes as they travel. */
  const raw = (path: string, encoding: string, method = 'GET') =>
    new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path, method, headers: { 'Accept-Encoding': encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('gzips a page sent whole in one piece for a browser, with its length and Vary, the same JSON as sent plain', async () => {
    const gzipped = await raw('/page', 'gzip, deflate, br, zstd');
    expect(gzipped.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-length': String(gzipped.body.length),
      vary: 'Accept-Encoding',
    });
    const plain = await raw('/page', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(gzipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('leaves larger responses, responses written in parts and br-only clients to the compressing stream', async () => {
    for (const [path, encoding] of [
      ['/large', 'gzip, deflate, br, zstd'],
      ['/parts', 'gzip, deflate, br, zstd'],
      ['/page', 'br'],
    ]) {
      const streamed = await raw(path, encoding);
      expect({ path, encoding: streamed.headers['content-encoding'], length: streamed.headers['content-length'] }).toEqual({
        path,
        encoding: 'br',
        length: undefined,
      });
      const plain = await raw(path, 'identity');
      expect(brotliDecompressSync(streamed.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    }
    const large = await raw('/large', 'identity');
    expect(large.body.length).toBeGreaterThan(GZIP_WHOLE_MAX);
  });

  it('sends small responses, no-transform responses and HEAD as they are', async () => {
    const small = await raw('/small', 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ ok: true });
    const kept = await raw('/no-transform', 'gzip');
    expect(kept.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(kept.body.toString('utf8'))).toEqual(jsonOf(12_000));
    const head = await raw('/page', 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.body.length).toBe(0);
  });
});
