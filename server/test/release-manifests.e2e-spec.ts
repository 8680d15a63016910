import { execFile, execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { canonicalJson } from '../src/modules/licenses/license-signing.service';
import { ReleaseManifestsService } from '../src/modules/release-manifests/release-manifests.service';
import { asBuffer, createVersion, sha256, someBytes, uploadFile, UploadedFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

const run = promisify(execFile);

interface ListedKey {
  kid: string;
  public_key_pem: string;
  current: boolean;
}

/** A server between a script and the portal that changes what the portal answers on one path. */
async function tamperingProxy(portal: string, change: (path: string, body: Buffer) => Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(`${portal}${request.url}`, { headers: { Accept: 'application/json' } });
      const body = change(request.url ?? '', Buffer.from(await upstream.arrayBuffer()));
      response.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/json' });
      response.end(body);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe(`signed release manifests (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let portal: string;
  let dir: string;
  let deb: UploadedFile;
  let archive: UploadedFile;
  const debBytes = someBytes(3000);
  const verifier = () => join(dir, 'streamhub-license-test', 'streamhub-verify-download.mjs');
  const proxies: Server[] = [];

  const publicKeys = async (): Promise<ListedKey[]> => (await t.api().get('/api/license-server/public-keys').expect(200)).body.data.keys;
  const manifestOf = (version: string) => t.api().get(`/api/releases/${encodeURIComponent(version)}/manifest`);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    portal = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'release-manifests-'));
    const version = await createVersion(t, '3.1.0');
    deb = await uploadFile(t, {
      version_id: version.id,
      os_type: 'linux',
      architecture: 'x64',
      bytes: debBytes,
      name: 'streamhub_3.1.0_amd64.deb',
    });
    archive = await uploadFile(t, {
      version_id: version.id,
      os_type: 'linux',
      architecture: 'arm64',
      name: 'streamhub-3.1.0-arm64.tar.gz',
    });
    const tarball = await t.api().get('/api/license-server/test-script.tar.gz').buffer(true).parse(asBuffer).expect(200);
    writeFileSync(join(dir, 'archive.tar.gz'), tarball.body as Buffer);
    execFileSync('tar', ['-xzf', 'archive.tar.gz'], { cwd: dir });
  });
  afterAll(async () => {
    for (const server of proxies) server.close();
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it("serves a published release's manifest without a session, signed over its canonical JSON with the listed current key", async () => {
    const response = await manifestOf('3.1.0').expect(200);
    const { manifest, signature, kid } = response.body.data;
    const [current] = await publicKeys();
    expect(current.current).toBe(true);
    expect(kid).toBe(current.kid);
    expect(manifest).toEqual({
      product: 'StreamHub',
      version: '3.1.0',
      channel: 'stable',
      published_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      files: [
        { os: 'linux', arch: 'arm64', name: archive.file_name, size: archive.file_size, sha256: archive.file_hash },
        { os: 'linux', arch: 'x64', name: deb.file_name, size: 3000, sha256: sha256(debBytes) },
      ],
      kid,
    });
    const key = createPublicKey(current.public_key_pem);
    expect(verify(null, Buffer.from(canonicalJson(manifest), 'utf8'), key, Buffer.from(signature, 'base64'))).toBe(true);
    const changed = { ...manifest, version: '3.1.1' };
    expect(verify(null, Buffer.from(canonicalJson(changed), 'utf8'), key, Buffer.from(signature, 'base64'))).toBe(false);
  });

  it('serves the signed bytes and the raw signature for openssl, and the same manifest to the update API', async () => {
    const { body } = await manifestOf('3.1.0').expect(200);
    const bytes = await t.api().get('/api/releases/3.1.0/manifest.json').buffer(true).parse(asBuffer).expect(200);
    expect(bytes.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((bytes.body as Buffer).toString('utf8')).toBe(canonicalJson(body.data.manifest));
    const signature = await t.api().get('/api/releases/3.1.0/manifest.sig').buffer(true).parse(asBuffer).expect(200);
    expect((signature.body as Buffer).toString('base64')).toBe(body.data.signature);

    const forUpdates = await t.app.get(ReleaseManifestsService).manifestFor('3.1.0');
    expect(forUpdates).toMatchObject({ manifest: body.data.manifest, signature: body.data.signature, kid: body.data.kid });
    expect(forUpdates!.bytes.equals(bytes.body as Buffer)).toBe(true);
    expect(await t.app.get(ReleaseManifestsService).manifestFor('9.9.9')).toBeNull();
  });

  it('answers 404 for drafts, yanked and unknown versions, and 400 for what is no version number', async () => {
    const draft = await createVersion(t, '3.2.0-rc.1', { channel: 'rc', state: 'draft' });
    await uploadFile(t, { version_id: draft.id });
    const yanked = await createVersion(t, '3.0.9');
    await t.api().put(`/api/admin/versions/${yanked.id}`).set(bearer(admin)).send({ state: 'yanked' }).expect(200);
    for (const version of ['3.2.0-rc.1', '3.0.9', '7.7.7', '3.1.0-x', '3.1.0 ']) {
      for (const path of ['manifest', 'manifest.json', 'manifest.sig']) {
        const response = await t.api().get(`/api/releases/${encodeURIComponent(version)}/${path}`);
        expect({ version, path, status: response.status }).toEqual({ version, path, status: version.endsWith(' ') ? 400 : 404 });
      }
    }
    await t
      .api()
      .get(`/api/releases/${'9'.repeat(60)}/manifest`)
      .expect(400);
    // Published again, it has a manifest again.
    await t.api().put(`/api/admin/versions/${yanked.id}`).set(bearer(admin)).send({ state: 'published' }).expect(200);
    expect((await manifestOf('3.0.9').expect(200)).body.data.manifest).toMatchObject({ version: '3.0.9', files: [] });
  });

  it('signs with the new key after a rotation', async () => {
    const rotated = await t.api().post('/api/admin/signing-keys/rotate').set(bearer(admin)).expect(201);
    const { manifest, signature, kid } = (await manifestOf('3.1.0').expect(200)).body.data;
    expect(kid).toBe(rotated.body.data.kid);
    expect(manifest.kid).toBe(kid);
    const key = (await publicKeys()).find((listed) => listed.kid === kid)!;
    expect(
      verify(null, Buffer.from(canonicalJson(manifest), 'utf8'), createPublicKey(key.public_key_pem), Buffer.from(signature, 'base64')),
    ).toBe(true);
  });

  describe("the test-script archive's download check, run as a process against the portal", () => {
    const file = () => join(dir, deb.file_name);
    const check = (url: string, path = file()) =>
      run(process.execPath, [verifier(), '--url', url, '--version', '3.1.0', '--file', path], { cwd: dir });

    beforeAll(async () => {
      const download = await t.api().get(`/api/download/${deb.id}`).set(bearer(admin)).buffer(true).parse(asBuffer).expect(200);
      writeFileSync(file(), download.body as Buffer);
    });

    it('prints ok for the downloaded file', async () => {
      const { stdout } = await check(portal);
      expect(stdout).toBe('ok\n');
    });

    it('refuses the file with one byte changed', async () => {
      const changed = Buffer.from(readFileSync(file()));
      changed[1234] ^= 0x01;
      const path = join(dir, 'changed', deb.file_name);
      mkdirSync(join(dir, 'changed'), { recursive: true });
      writeFileSync(path, changed);
      const refused = await check(portal, path).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 3, stdout: '' });
      expect((refused as { stderr: string }).stderr).toMatch(/REFUSED: .* does not match the manifest/);
    });

    it('refuses a manifest with one byte changed on the way', async () => {
      const proxy = await tamperingProxy(portal, (path, body) => {
        if (!path.includes('/manifest')) return body;
        const text = body.toString('utf8');
        const digest = sha256(debBytes);
        return Buffer.from(text.replace(digest, (digest[0] === 'a' ? 'b' : 'a') + digest.slice(1)), 'utf8');
      });
      proxies.push(proxy.server);
      const refused = await check(proxy.url).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 3, stdout: '' });
      expect((refused as { stderr: string }).stderr).toMatch(/signature does not verify/);
    });

    it('refuses a manifest signed with a key the portal does not list', async () => {
      const proxy = await tamperingProxy(portal, (path, body) => {
        if (!path.includes('/public-keys')) return body;
        const listed = JSON.parse(body.toString('utf8'));
        listed.data.keys = listed.data.keys.filter((key: ListedKey) => !key.current);
        return Buffer.from(JSON.stringify(listed), 'utf8');
      });
      proxies.push(proxy.server);
      const refused = await check(proxy.url).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 3, stdout: '' });
      expect((refused as { stderr: string }).stderr).toMatch(/which the portal does not list/);
    });
  });

  describe('the install command', () => {
    const commandFor = async (fileId: number) =>
      (await t.api().post(`/api/download/${fileId}/link`).set(bearer(admin)).expect(200)).body.data.download_command as string;
    const runIn = (command: string) => run('sh', ['-c', command], { cwd: mkdtempSync(join(dir, 'install-')) });

    it('downloads, checks the SHA-256, then the signed manifest with openssl, and says OK', async () => {
      const command = await commandFor(archive.id);
      expect(command).toContain(`${portal}/api/releases/3.1.0/manifest.json`);
      const { stdout } = await runIn(command);
      expect(stdout).toMatch(/: OK\n[\s\S]*Signature Verified Successfully[\s\S]*Release manifest: OK\n$/);
    });

    it('refuses once the key it pinned no longer signs the manifest', async () => {
      const command = await commandFor(archive.id);
      await t.api().post('/api/admin/signing-keys/rotate').set(bearer(admin)).expect(201);
      const refused = await runIn(command).catch((error: { code: number; stdout: string }) => error);
      expect(refused).toMatchObject({ code: expect.any(Number) });
      expect((refused as { stdout: string }).stdout).not.toMatch(/Release manifest: OK/);
      // A command made now pins the new key.
      expect((await runIn(await commandFor(archive.id))).stdout).toMatch(/Release manifest: OK\n$/);
    });

    it('refuses a file whose stored bytes changed', async () => {
      // A file never downloaded yet: a small file's bytes are kept in memory once sent (stored objects never change).
      const version = await createVersion(t, '3.1.1');
      const fresh = await uploadFile(t, { version_id: version.id, architecture: 'x86', name: 'streamhub-3.1.1-x86.tar.gz' });
      const [row] = await t.dataSource.query('SELECT storage_key FROM distribution_files WHERE id = ?', [fresh.id]);
      const stored = join(t.config.storage.dir, row.storage_key);
      const bytes = readFileSync(stored);
      bytes[10] ^= 0x01;
      writeFileSync(stored, bytes);
      const refused = await runIn(await commandFor(fresh.id)).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 1 });
      expect((refused as { stdout: string }).stdout).not.toMatch(/Release manifest: OK/);
      expect((refused as { stderr: string }).stderr).toMatch(/sha256sum: WARNING/);
    });
  });
});
