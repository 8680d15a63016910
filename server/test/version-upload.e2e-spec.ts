import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { countRows, createVersion, eventually, postVersion, someBytes, storedFiles } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

const MAX_UPLOAD_BYTES = 64 * 1024;
const BOUNDARY = '----portal-test-boundary';

/** The start of a multipart body written by hand, so the file part's filename goes out byte for byte as given. */
function multipartHead(fields: Record<string, string>, fileName: string): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

function multipart(fields: Record<string, string>, fileName: string, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(multipartHead(fields, fileName)), bytes, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

describe(`version and file uploads at the edges (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;

  const snapshot = async () => ({
    versions: await countRows(t, 'versions'),
    files: await countRows(t, 'distribution_files'),
    stored: storedFiles(t),
  });

  beforeAll(async () => {
    t = await startTestApp({ MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    admin = await t.adminToken();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('POST /api/admin/upload', () => {
    it('refuses a version file over MAX_UPLOAD_BYTES with 413, keeping no file (not even a temporary one) and no row', async () => {
      const before = await snapshot();
      const response = await postVersion(
        t,
        admin,
        { version: '6.0.0', release_date: '2025-08-01' },
        { bytes: someBytes(MAX_UPLOAD_BYTES + 1), name: 'big.zip' },
      );
      expect({ status: response.status, message: response.body.message }).toEqual({
        status: 413,
        message: 'File too large. The maximum upload size is 64 KB.',
      });
      expect(await snapshot()).toEqual(before);
      await t.api().get('/api/admin/versions/supported').set(bearer(admin)).expect(200);
    });

    it('accepts a version file of exactly MAX_UPLOAD_BYTES', async () => {
      const response = await postVersion(
        t,
        admin,
        { version: '6.0.1', release_date: '2025-08-01' },
        { bytes: someBytes(MAX_UPLOAD_BYTES), name: 'exact.zip' },
      ).expect(201);
      expect(response.body.data.file_size).toBe(MAX_UPLOAD_BYTES);
    });

    it('leaves neither file nor row behind when the client aborts mid-upload', async () => {
      const before = await snapshot();
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/upload',
        headers: { ...bearer(admin), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': 10_000_000 },
      });
      request.on('error', () => undefined);
      request.write(multipartHead({ version: '6.0.2', release_date: '2025-08-01' }, 'aborted.zip'));
      request.write(someBytes(30_000));
      // The upload is under way once its temporary file exists; then the client goes away.
      await eventually('the upload is being written', () => storedFiles(t).some((path) => path.startsWith('.tmp/')));
      request.destroy();
      await eventually('the temporary file is gone', () => !storedFiles(t).some((path) => path.startsWith('.tmp/')));
      expect(await snapshot()).toEqual(before);
      // The server is fine afterwards, and the version number is still free.
      await postVersion(t, admin, { version: '6.0.2', release_date: '2025-08-01' }).expect(201);
    });
  });

  describe('POST /api/admin/distribution-files with a path in the multipart filename', () => {
    let version: { id: number };
    beforeAll(async () => {
      version = await createVersion(t, '7.0.0');
    });

    it.each([
      ['../../etc/passwd.deb', 'passwd.deb'],
      ['..\\\\..\\\\evil.deb', 'evil.deb'],
      ['..\\..\\raw.deb', 'raw.deb'],
      ['/etc/cron.d/absolute.deb', 'absolute.deb'],
    ])('stores %s under a generated key, named by its last segment only, and writes nothing outside storage', async (sent, kept) => {
      const storage = t.config.storage.dir;
      // Where the name would land if it were ever used as a path, from every folder the upload passes through.
      const escapes = [storage, resolve(storage, '.tmp'), resolve(storage, 'files')].map((folder) => resolve(folder, sent));
      const outsideBefore = readdirSync(t.config.dataDir);
      const before = storedFiles(t);
      const response = await t
        .api()
        .post('/api/admin/distribution-files')
        .set(bearer(admin))
        .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
        .send(multipart({ version_id: String(version.id), os_type: 'linux', architecture: 'x64' }, sent, someBytes(1000)))
        .expect(201);
      expect(response.body.data.file_name).toBe(kept);
      const added = storedFiles(t).filter((path) => !before.includes(path));
      expect(added).toEqual([expect.stringMatching(/^files\/[0-9a-f-]{36}\.deb$/)]);
      expect(escapes.filter((path) => existsSync(path))).toEqual([]);
      expect(readdirSync(t.config.dataDir)).toEqual(outsideBefore);
    });
  });
});
