import { get, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createVersion, someBytes, uploadFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** The built web client on the same origin: precompressed text, cached assets, the page for every other path; API JSON compressed. */
describe(`serving the web client (${process.env.TEST_DB})`, () => {
  const dist = mkdtempSync(join(tmpdir(), 'portal-client-'));
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
  const page = `<!doctype html><title>StreamHub</title><div id="root"></div>${'<!-- padding -->'.repeat(40)}`;
  const style = `.a{color:red}${'.b{margin:0}'.repeat(200)}`;
  let t: TestApp;

  /** A file of the build with the twins client/vite.config.ts writes. */
  const built = (name: string, text: string) => {
    writeFileSync(join(dist, name), text);
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(text, { level: 9 }));
  };

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    mkdirSync(join(dist, '.vite'));
    built('index.html', page);
    built('assets/index-abc123.js', script);
    built('assets/index-abc123.css', style);
    writeFileSync(join(dist, 'assets', 'logo-abc123.png'), someBytes(300));
    writeFileSync(join(dist, '.vite', 'manifest.json'), '{}');
    t = await startTestApp({ CLIENT_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** The bytes as they travel (supertest would decompress them). */
  const raw = (path: string, encoding = 'gzip', headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      get({ host: '127.0.0.1', port, path, headers: { ...(encoding ? { 'Accept-Encoding': encoding } : {}), ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('sends a script as its brotli twin to a browser that accepts br, with its type, length and Vary, cached for good', async () => {
    const response = await raw('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-encoding': 'br',
      'content-type': 'text/javascript; charset=utf-8',
      'content-length': String(response.body.length),
      vary: 'Accept-Encoding',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(response.body.length).toBeLessThan(Buffer.byteLength(script) / 2);
    expect(brotliDecompressSync(response.body).toString('utf8')).toBe(script);
  });

  it('sends the gzip twin when br is not accepted (or refused with q=0), and the file as it is to a client that accepts neither', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const response = await raw('/assets/index-abc123.css', accept);
      expect(response.headers).toMatchObject({
        'content-encoding': 'gzip',
        'content-type': 'text/css; charset=utf-8',
        'content-length': String(response.body.length),
        vary: 'Accept-Encoding',
      });
      expect(gunzipSync(response.body).toString('utf8')).toBe(style);
    }
    for (const accept of ['identity', '']) {
      const response = await raw('/assets/index-abc123.js', accept);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers).toMatchObject({ 'content-length': String(Buffer.byteLength(script)), vary: 'Accept-Encoding' });
      expect(response.body.toString('utf8')).toBe(script);
    }
  });

  it('sends files without twins as they are, with their type, and never hidden files', async () => {
    const image = await raw('/assets/logo-abc123.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-length']).toBe('300');
    const hidden = await raw('/.vite/manifest.json', 'identity');
    expect(hidden.body.toString('utf8')).toContain('<div id="root">');
  });

  it('answers the page and every other path of the app with index.html, precompressed, never cached', async () => {
    for (const path of ['/', '/index.html', '/dashboard/licenses']) {
      const response = await raw(path, 'br, gzip');
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'cache-control': 'no-cache',
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'br',
        vary: 'Accept-Encoding',
      });
      expect(brotliDecompressSync(response.body).toString('utf8')).toBe(page);
    }
    const plain = await raw('/dashboard/licenses', 'identity');
    expect(plain.body.toString('utf8')).toBe(page);
  });

  it('compresses API JSON above 1 kB, and leaves small answers, downloads and exports as they are', async () => {
    const admin = await t.adminToken();
    for (let i = 0; i < 6; i++) await t.signUpClient();
    const list = await raw('/api/admin/users?limit=50', 'gzip', bearer(admin));
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(list.headers.vary).toContain('Accept-Encoding');
    const users = JSON.parse(gunzipSync(list.body).toString('utf8'));
    expect(users.data.length).toBeGreaterThanOrEqual(7);
    expect(JSON.stringify(users).length).toBeGreaterThan(1024);

    // A browser's list: gzipped whole (one synchronous call, see compressed-responses.ts), its length that of the
    // bytes sent; the same JSON as sent plain.
    const browser = await raw('/api/admin/users?limit=50', 'gzip, deflate, br, zstd', bearer(admin));
    expect(browser.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-length': String(browser.body.length) });
    expect(browser.headers.vary).toContain('Accept-Encoding');
    const plain = await raw('/api/admin/users?limit=50', 'identity', bearer(admin));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(browser.body).toString('utf8')).toBe(plain.body.toString('utf8'));

    const small = await raw('/api/health', 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();

    const version = await createVersion(t, '3.0.0');
    const bytes = Buffer.from('{"json-looking": true}'.repeat(200));
    const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-3.0.0.zip', bytes });
    const download = await raw(`/api/download/${file.id}`, 'gzip, br', bearer(admin));
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(download.headers['content-length']).toBe(String(bytes.length));
    expect(download.body.equals(bytes)).toBe(true);
    const ranged = await raw(`/api/download/${file.id}`, 'gzip', { ...bearer(admin), Range: 'bytes=0-9' });
    expect(ranged.status).toBe(206);
    expect(ranged.body.equals(bytes.subarray(0, 10))).toBe(true);

    const exported = await raw('/api/admin/logs/export?type=local', 'gzip', bearer(admin));
    expect(exported.status).toBe(200);
    expect(exported.headers['content-encoding']).toBeUndefined();
  });

  it('never answers an API path with the app', async () => {
    const missing = await raw('/api/no-such-route', 'identity');
    expect(missing.status).toBe(404);
    expect(missing.body.toString('utf8')).not.toContain('<div id="root">');
  });
});
