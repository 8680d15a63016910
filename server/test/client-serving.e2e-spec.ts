import { get, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startTestApp, TestApp } from './support/test-app';

/** The built web client on the same origin: compressed text, cached assets, the page for every other path. */
describe(`serving the web client (${process.env.TEST_DB})`, () => {
  const dist = mkdtempSync(join(tmpdir(), 'portal-client-'));
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
  let t: TestApp;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>StreamHub</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
    t = await startTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** The bytes as they travel (supertest would decompress them). */
  const raw = (path: string, encoding = 'gzip') =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      get({ host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': encoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('sends scripts gzip-compressed to a browser that accepts it, cached for good', async () => {
    const response = await raw('/assets/index-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = response.body;
    expect(body.length).toBeLessThan(Buffer.byteLength(script) / 2);
    expect(gunzipSync(body).toString('utf8')).toBe(script);
  });

  it('sends them as they are to a client that does not accept gzip', async () => {
    const response = await raw('/assets/index-abc123.js', 'identity');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString('utf8')).toBe(script);
  });

  it('answers every other page with the app, never cached', async () => {
    const response = await raw('/dashboard/licenses', 'identity');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body.toString('utf8')).toContain('<div id="root">');
  });

  it('leaves API answers uncompressed and never answers an API path with the app', async () => {
    const settings = await raw('/api/settings');
    expect(settings.status).toBe(200);
    expect(settings.headers['content-encoding']).toBeUndefined();
    const missing = await raw('/api/no-such-route', 'identity');
    expect(missing.status).toBe(404);
    expect(missing.body.toString('utf8')).not.toContain('<div id="root">');
  });
});
