import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { get as httpGet, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DownloadLinksService } from '../src/modules/downloads/download-links.service';
import { DownloadsService } from '../src/modules/downloads/downloads.service';
import { DrainState } from '../src/modules/health/drain-state.service';
import { AccessLogService } from '../src/modules/access-log/access-log.service';
import { accessRows } from './support/access-rows';
import { asBuffer, countRows, createVersion, sha256, someBytes, uploadFile, UploadedFile } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

describe(`downloads (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let alice: { token: string; id: number; email: string };
  let bob: { token: string; id: number; email: string };
  let deb: UploadedFile;
  let debBytes: Buffer;
  let rpm: UploadedFile;

  const download = (id: number, token: string) => t.api().get(`/api/download/${id}`).set(bearer(token)).buffer(true).parse(asBuffer);
  const countOf = async (id: number) =>
    (await t.api().get(`/api/download/${id}/info`).set(bearer(admin)).expect(200)).body.data.download_count;
  const signedLink = async (id: number, token: string) =>
    (await t.api().post(`/api/download/${id}/link`).set(bearer(token)).expect(200)).body.data as {
      url: string;
      expires_at: string;
      install_command: string | null;
      download_command: string;
    };
  /** Where supertest sends requests (no PUBLIC_URL is set, so links point there). */
  const origin = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  /** The path and query of an absolute link, for supertest. */
  const local = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    alice = await t.signUpClient();
    bob = await t.signUpClient();
    const version = await createVersion(t, '2.1.0', { release_date: '2025-06-01', secret_hash: 'never-shown' });
    // Larger than one read chunk (512 KiB), so a whole download streams; small ranges are read in one piece.
    debBytes = someBytes(1_300_000);
    deb = await uploadFile(t, { version_id: version.id, name: 'streamhub_2.1.0_amd64.deb', bytes: debBytes });
    rpm = await uploadFile(t, { version_id: version.id, name: 'streamhub-2.1.0.x86_64.rpm', bytes: someBytes(5000) });
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('with a session', () => {
    it('returns the uploaded bytes exactly, with the download headers, and counts one download', async () => {
      expect(await countOf(deb.id)).toBe(0);
      const response = await download(deb.id, alice.token).expect(200);
      expect(sha256(response.body)).toBe(deb.file_hash);
      expect(response.body.equals(debBytes)).toBe(true);
      expect(response.headers).toMatchObject({
        'content-length': String(debBytes.length),
        'content-type': 'application/vnd.debian.binary-package',
        'content-disposition': `attachment; filename="streamhub_2.1.0_amd64.deb"; filename*=UTF-8''streamhub_2.1.0_amd64.deb`,
        etag: `"${deb.file_hash}"`,
        'accept-ranges': 'bytes',
      });
      expect(await countOf(deb.id)).toBe(1);
    });

    it('resumes with Range: 206 with the right slice, which does not count as another download', async () => {
      const response = await download(deb.id, alice.token).set('Range', 'bytes=1000-1999').expect(206);
      expect(response.body.equals(debBytes.subarray(1000, 2000))).toBe(true);
      expect(response.headers['content-range']).toBe(`bytes 1000-1999/${debBytes.length}`);
      expect(response.headers['content-length']).toBe('1000');
      const tail = await download(deb.id, alice.token).set('Range', 'bytes=-500').expect(206);
      expect(tail.body.equals(debBytes.subarray(debBytes.length - 500))).toBe(true);
      const rest = await download(deb.id, alice.token).set('Range', 'bytes=1299000-').expect(206);
      expect(rest.body.equals(debBytes.subarray(1_299_000))).toBe(true);
      const streamed = await download(deb.id, alice.token).set('Range', 'bytes=100000-1250000').expect(206);
      expect(streamed.body.equals(debBytes.subarray(100_000, 1_250_001))).toBe(true);
      expect(await countOf(deb.id)).toBe(1);
    });

    it('counts a ranged download that starts at the first byte', async () => {
      const head = await download(deb.id, alice.token).set('Range', 'bytes=0-99').expect(206);
      expect(head.body.equals(debBytes.subarray(0, 100))).toBe(true);
      expect(await countOf(deb.id)).toBe(2);
    });

    it('answers 416 to a range beyond the end, HEAD with headers only, and 304 to a matching If-None-Match, counting none of them', async () => {
      const refused = await t.api().get(`/api/download/${deb.id}`).set(bearer(alice.token)).set('Range', 'bytes=1300000-').expect(416);
      expect(refused.headers['content-range']).toBe(`bytes */${debBytes.length}`);
      const head = await t.api().head(`/api/download/${deb.id}`).set(bearer(alice.token)).expect(200);
      expect(head.headers).toMatchObject({
        'content-length': String(debBytes.length),
        etag: `"${deb.file_hash}"`,
        'accept-ranges': 'bytes',
      });
      await t.api().get(`/api/download/${deb.id}`).set(bearer(alice.token)).set('If-None-Match', `"${deb.file_hash}"`).expect(304);
      const changed = await download(deb.id, alice.token).set('Range', 'bytes=0-9').set('If-Range', '"another-etag"').expect(200);
      expect(changed.body.length).toBe(debBytes.length);
      expect(await countOf(deb.id)).toBe(3);
    });

    it('raises the count by exactly 50 for 50 concurrent downloads, each complete, each logged', async () => {
      const before = await countOf(rpm.id);
      const logsBefore = await countRows(t, 'download_logs');
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => download(rpm.id, i % 2 ? alice.token : bob.token)));
      expect(responses.every((response) => response.status === 200 && sha256(response.body) === rpm.file_hash)).toBe(true);
      expect(await countOf(rpm.id)).toBe(before + 50);
      expect(await countRows(t, 'download_logs')).toBe(logsBefore + 50);
    });

    it('gives name, size, hash and version of a file', async () => {
      const info = await t.api().get(`/api/download/${deb.id}/info`).set(bearer(bob.token)).expect(200);
      expect(info.body.data).toMatchObject({
        id: deb.id,
        file_name: 'streamhub_2.1.0_amd64.deb',
        file_size: debBytes.length,
        file_hash: sha256(debBytes),
        version: '2.1.0',
        os_type: 'linux',
        architecture: 'x64',
      });
      await t.api().get('/api/download/99999/info').set(bearer(bob.token)).expect(404);
    });

    it('answers 404 when the stored bytes are gone and 409 when they no longer match the record, counting neither', async () => {
      const version = await createVersion(t, '2.1.1', { release_date: '2025-06-02' });
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-2.1.1.tar.gz', bytes: someBytes(2000) });
      const [{ storage_key: key }] = await t.dataSource.query('SELECT storage_key FROM distribution_files WHERE id = ?', [file.id]);
      const path = join(t.config.storage.dir, key);
      writeFileSync(path, someBytes(1999));
      const changed = await t.api().get(`/api/download/${file.id}`).set(bearer(alice.token)).expect(409);
      expect(changed.body.message).toBe('The stored file does not match its record; upload it again');
      unlinkSync(path);
      const missing = await t.api().get(`/api/download/${file.id}`).set(bearer(alice.token)).expect(404);
      expect(missing.body.message).toBe('The file is missing from storage');
      expect(await countOf(file.id)).toBe(0);
    });

    it('closes the file when the client goes away mid-transfer, and keeps serving', async () => {
      const version = await createVersion(t, '2.1.2', { release_date: '2025-06-03' });
      // More than the loopback socket buffers hold, so the transfer is still under way when the client leaves.
      const bytes = someBytes(24 * 1024 * 1024);
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-2.1.2.tar.gz', bytes });
      const [{ storage_key: key }] = await t.dataSource.query('SELECT storage_key FROM distribution_files WHERE id = ?', [file.id]);
      const stored = join(t.config.storage.dir, key);
      const openCopies = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === stored;
          } catch {
            return false; // closed while listing
          }
        }).length;
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        const request = httpGet({ port, path: `/api/download/${file.id}`, headers: bearer(alice.token), agent: false }, (response) => {
          expect(response.statusCode).toBe(200);
          response.once('data', () => {
            response.pause();
            expect(openCopies()).toBe(1);
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      });
      for (let tries = 0; openCopies() > 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(openCopies()).toBe(0);
      const again = await download(file.id, alice.token).expect(200);
      expect(sha256(again.body)).toBe(file.file_hash);
    });

    it('answers the same before Express (the exact path) as through it (a query string): bytes, headers, refusals, log rows', async () => {
      const version = await createVersion(t, '2.1.3', { release_date: '2025-06-04' });
      const bytes = someBytes(3000);
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-2.1.3.tar.gz', bytes });
      const send = jest.spyOn(t.app.get(DownloadsService), 'send');
      const agents = { fast: `fast-${Date.now()}`, routed: `routed-${Date.now()}` };
      const get = (path: string, agent: string) =>
        t.api().get(path).set(bearer(alice.token)).set('User-Agent', agent).buffer(true).parse(asBuffer);
      const fast = await get(`/api/download/${file.id}`, agents.fast).expect(200);
      const routed = await get(`/api/download/${file.id}?via=router`, agents.routed).expect(200);
      // The exact path was answered on Node's own request, the other on Express's (its prototype swapped in).
      expect(send.mock.calls.map(([, , request]) => Object.getPrototypeOf(request) === IncomingMessage.prototype)).toEqual([true, false]);
      send.mockRestore();
      const headersOf = ({ headers }: { headers: Record<string, string> }) => ({ ...headers, date: undefined, 'x-request-id': undefined });
      expect(fast.body.equals(bytes) && routed.body.equals(bytes)).toBe(true);
      expect(headersOf(fast)).toEqual(headersOf(routed));
      expect(fast.headers).toMatchObject({
        'cache-control': 'private, no-cache',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'content-length': '3000',
      });
      for (const [method, status, headers] of [
        ['head', 200, {}],
        ['get', 416, { Range: 'bytes=3000-' }],
        ['get', 304, { 'If-None-Match': `"${file.file_hash}"` }],
      ] as const) {
        const answers = await Promise.all(
          [`/api/download/${file.id}`, `/api/download/${file.id}?via=router`].map((path) =>
            t.api()[method](path).set(bearer(alice.token)).set(headers).expect(status),
          ),
        );
        expect(headersOf(answers[0])).toEqual(headersOf(answers[1]));
        expect(answers[0].text).toEqual(answers[1].text);
      }
      // A failure once the session and the file are known leaves through the exception filter either way.
      const gone = await uploadFile(t, { version_id: version.id, name: 'streamhub-2.1.3.zip', bytes: someBytes(1000) });
      const [{ storage_key: key }] = await t.dataSource.query('SELECT storage_key FROM distribution_files WHERE id = ?', [gone.id]);
      unlinkSync(join(t.config.storage.dir, key));
      const missing = await Promise.all(
        [`/api/download/${gone.id}`, `/api/download/${gone.id}?via=router`].map((path) =>
          t.api().get(path).set(bearer(alice.token)).expect(404),
        ),
      );
      expect(missing.map((answer) => answer.body)).toEqual(
        [0, 1].map(() => ({ statusCode: 404, message: 'The file is missing from storage' })),
      );
      expect(headersOf(missing[0])).toEqual(headersOf(missing[1]));

      // The same access-log and download rows, but for the path as sent and the time it took.
      await t.app.get(AccessLogService).flush();
      await t.app.get(DownloadsService).flush();
      const accessRowOf = async (agent: string) => {
        const rows = (await accessRows(t.dataSource)).filter((row) => row.user_agent === agent);
        expect(rows).toHaveLength(1);
        const { method, route, status, bytes_out, user_id, user_email, ip_address } = rows[0];
        return { method, route, status, bytes_out, user_id, user_email, ip_address };
      };
      const fastRow = await accessRowOf(agents.fast);
      expect(fastRow).toMatchObject({ method: 'GET', route: '/api/download/:id', status: 200, user_id: alice.id, user_email: alice.email });
      expect(fastRow.bytes_out).toBeGreaterThan(3000);
      expect(fastRow.ip_address).toMatch(/127\.0\.0\.1/);
      expect(fastRow).toEqual(await accessRowOf(agents.routed));
      const downloadRowOf = async (agent: string) => {
        const rows = await t.dataSource.query('SELECT user_id, file_id, ip_address, via FROM download_logs WHERE user_agent = ?', [agent]);
        expect(rows).toHaveLength(1);
        return { ...rows[0], user_id: Number(rows[0].user_id), file_id: Number(rows[0].file_id) };
      };
      const fastDownload = await downloadRowOf(agents.fast);
      expect(fastDownload).toMatchObject({ user_id: alice.id, file_id: file.id, via: 'session' });
      expect(fastDownload.ip_address).toMatch(/127\.0\.0\.1/);
      expect(fastDownload).toEqual(await downloadRowOf(agents.routed));
    });

    it('asks the client to reconnect elsewhere while draining, on the exact path as through Express', async () => {
      const draining = await startTestApp();
      try {
        const version = await createVersion(draining, '3.0.0', { release_date: '2025-07-01' });
        const file = await uploadFile(draining, { version_id: version.id, name: 'streamhub-3.0.0.tar.gz', bytes: someBytes(1000) });
        const user = await draining.signUpClient();
        const call = (path: string) => draining.api().get(path).set(bearer(user.token)).set('Connection', 'keep-alive');
        expect((await call(`/api/download/${file.id}`).expect(200)).headers.connection).toBe('keep-alive');
        draining.app.get(DrainState).start();
        for (const path of [`/api/download/${file.id}`, `/api/download/${file.id}?via=router`]) {
          expect((await call(path).expect(200)).headers.connection).toBe('close');
        }
      } finally {
        await draining.close();
      }
    });

    it('refuses anonymous callers and unknown files', async () => {
      await t.api().get(`/api/download/${deb.id}`).expect(401);
      await t.api().post(`/api/download/${deb.id}/link`).expect(401);
      await t.api().get('/api/downloads/history').expect(401);
      await t.api().get('/api/download/99999').set(bearer(alice.token)).expect(404);
      await t.api().get('/api/download/abc').set(bearer(alice.token)).expect(400);
    });
  });

  describe('history', () => {
    it("lists the caller's own downloads, newest first, with file, version, IP, user agent and time", async () => {
      const carol = await t.signUpClient();
      await download(deb.id, carol.token).set('User-Agent', 'carol-agent/1.0').expect(200);
      await download(rpm.id, carol.token).set('User-Agent', 'carol-agent/1.0').expect(200);
      const history = await t.api().get('/api/downloads/history').set(bearer(carol.token)).expect(200);
      expect(history.body.meta).toMatchObject({ total: 2, page: 1 });
      expect(history.body.data.map((entry: { file_name: string }) => entry.file_name)).toEqual([
        'streamhub-2.1.0.x86_64.rpm',
        'streamhub_2.1.0_amd64.deb',
      ]);
      expect(history.body.data[1]).toMatchObject({
        file_id: deb.id,
        version: '2.1.0',
        os_type: 'linux',
        architecture: 'x64',
        file_size: debBytes.length,
        ip_address: expect.stringMatching(/127\.0\.0\.1/),
        user_agent: 'carol-agent/1.0',
        via: 'session',
      });
      const [row] = await t.dataSource.query('SELECT user_id, user_email FROM download_logs WHERE id = ?', [history.body.data[0].id]);
      expect(row).toEqual({ user_id: carol.id, user_email: carol.email });
    });

    it("never shows another user's downloads", async () => {
      const dave = await t.signUpClient();
      const history = await t.api().get('/api/downloads/history').set(bearer(dave.token)).expect(200);
      expect(history.body).toEqual({ success: true, data: [], meta: { total: 0, page: 1, limit: 25, pages: 1 } });
      const alices = await t.api().get('/api/downloads/history').query({ limit: 100 }).set(bearer(alice.token)).expect(200);
      expect(alices.body.data.length).toBeGreaterThan(0);
      expect(alices.body.data.every((entry: { via: string }) => entry.via === 'session')).toBe(true);
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM download_logs WHERE user_id = ?', [alice.id]);
      expect(alices.body.meta.total).toBe(Number(n));
    });
  });

  describe('signed links', () => {
    it('works without a bearer header, counts and logs the download for the user who asked for the link', async () => {
      const before = await countOf(deb.id);
      const link = await signedLink(deb.id, bob.token);
      expect(link.url).toMatch(
        new RegExp(`^${origin()}/api/download/${deb.id}/signed\\?expires=\\d+&user=${bob.id}&signature=[\\w-]{43}$`),
      );
      const expiresIn = Date.parse(link.expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(0);
      expect(expiresIn).toBeLessThanOrEqual(t.config.downloads.linkTtlSeconds * 1000);
      const response = await t.api().get(local(link.url)).buffer(true).parse(asBuffer).expect(200);
      expect(sha256(response.body)).toBe(deb.file_hash);
      expect(await countOf(deb.id)).toBe(before + 1);
      const history = await t.api().get('/api/downloads/history').set(bearer(bob.token)).expect(200);
      expect(history.body.data[0]).toMatchObject({ file_id: deb.id, via: 'link' });
      const resumed = await t.api().get(local(link.url)).set('Range', 'bytes=10-19').buffer(true).parse(asBuffer).expect(206);
      expect(resumed.body.equals(debBytes.subarray(10, 20))).toBe(true);
    });

    it('fails when altered: another file, another expiry, another user, another signature, missing parts', async () => {
      const link = new URL((await signedLink(deb.id, bob.token)).url);
      const alter = (change: (url: URL) => void) => {
        const copy = new URL(link);
        change(copy);
        return `${copy.pathname}${copy.search}`;
      };
      const signature = link.searchParams.get('signature')!;
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      const forged = [
        alter((url) => (url.pathname = url.pathname.replace(`/${deb.id}/`, `/${rpm.id}/`))),
        alter((url) => url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600))),
        alter((url) => url.searchParams.set('user', String(alice.id))),
        alter((url) => url.searchParams.set('signature', flipped)),
        alter((url) => url.searchParams.set('signature', signature.slice(0, -1))),
        alter((url) => url.searchParams.delete('signature')),
        alter((url) => url.searchParams.delete('expires')),
        alter((url) => url.searchParams.set('expires', '1e12')),
      ];
      const before = await countOf(deb.id);
      for (const path of forged) {
        const response = await t.api().get(path);
        expect({ path, status: response.status }).toEqual({ path, status: 403 });
        expect(response.body.message).toBe('Invalid download link');
      }
      expect(await countOf(deb.id)).toBe(before);
      await t.api().get(local(link.href)).expect(200);
    });

    it('expires', async () => {
      const link = await signedLink(deb.id, alice.token);
      const links = t.app.get(DownloadLinksService);
      const realClock = links.clock;
      links.clock = () => Date.parse(link.expires_at) + 1000;
      try {
        const response = await t.api().get(local(link.url)).expect(410);
        expect(response.body.message).toBe('This download link has expired. Copy a new command from the dashboard.');
      } finally {
        links.clock = realClock;
      }
      await t.api().get(local(link.url)).expect(200);
    });

    it('stops working for a deactivated account', async () => {
      const erin = await t.signUpClient();
      const link = await signedLink(deb.id, erin.token);
      await t.api().post(`/api/admin/users/${erin.id}/toggle-status`).set(bearer(admin)).expect(200);
      await t.api().get(local(link.url)).expect(403);
    });

    it('comes with the install command that fits the file, which checks the SHA-256 and the signed manifest', async () => {
      const debLink = await signedLink(deb.id, alice.token);
      const command = debLink.install_command ?? '';
      expect(
        command.startsWith(
          `curl -fL --retry 3 -C - -o streamhub_2.1.0_amd64.deb '${debLink.url}' && ` +
            `echo '${deb.file_hash}  streamhub_2.1.0_amd64.deb' | sha256sum -c - && (`,
        ),
      ).toBe(true);
      expect(command).toContain('/api/releases/2.1.0/manifest.json');
      expect(command).toContain(`"name":"streamhub_2.1.0_amd64.deb","os":"linux","sha256":"${deb.file_hash}"`);
      expect(command.endsWith(`echo 'Release manifest: OK') && sudo apt install -y ./streamhub_2.1.0_amd64.deb`)).toBe(true);
      const rpmLink = await signedLink(rpm.id, alice.token);
      expect(rpmLink.install_command).toMatch(
        /sha256sum -c - && \(.*openssl pkeyutl -verify .*echo 'Release manifest: OK'\) && sudo dnf install -y \.\/streamhub-2\.1\.0\.x86_64\.rpm$/,
      );
    });

    describe('point at', () => {
      const linkFor = (app: TestApp, fileId: number, token: string, headers: Record<string, string>) =>
        app.api().post(`/api/download/${fileId}/link`).set(bearer(token)).set(headers).expect(200);
      /** Another portal with these settings, one file in it, and a client to ask for links. */
      const portalWithFile = async (env: Record<string, string>) => {
        const app = await startTestApp(env);
        const version = await createVersion(app, '1.0.0');
        const file = await uploadFile(app, { version_id: version.id, name: 'streamhub_1.0.0_amd64.deb' });
        return { app, file, client: await app.signUpClient() };
      };

      it('the host the request came to when PUBLIC_URL is not set, in the link and in the install command', async () => {
        expect(t.config.publicUrlSet).toBe(false);
        const response = await linkFor(t, deb.id, alice.token, { Host: 'portal.example.test:8443' });
        const { url, install_command } = response.body.data;
        expect(url).toMatch(new RegExp(`^http://portal\\.example\\.test:8443/api/download/${deb.id}/signed\\?expires=`));
        expect(install_command).toContain(`-o streamhub_2.1.0_amd64.deb '${url}' && `);
      });

      it('the configured base (PUBLIC_URL or its default) when the Host is no plain host[:port]', async () => {
        const response = await linkFor(t, deb.id, alice.token, { Host: 'evil.test/phish?' });
        expect(response.body.data.url).toMatch(new RegExp(`^${t.config.publicUrl}/api/download/${deb.id}/signed\\?expires=`));
      });

      it('the forwarded protocol and host only behind a trusted proxy (TRUST_PROXY)', async () => {
        const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'portal.example.test' };
        const untrusted = await linkFor(t, deb.id, alice.token, forwarded);
        expect(untrusted.body.data.url).toMatch(new RegExp(`^${origin()}/api/download/`));
        const proxied = await portalWithFile({ TRUST_PROXY: 'loopback' });
        try {
          const trusted = await linkFor(proxied.app, proxied.file.id, proxied.client.token, forwarded);
          expect(trusted.body.data.url).toMatch(new RegExp(`^https://portal\\.example\\.test/api/download/${proxied.file.id}/signed\\?`));
        } finally {
          await proxied.app.close();
        }
      });

      it('PUBLIC_URL when it is set, whatever host the request names', async () => {
        const configured = await portalWithFile({ PUBLIC_URL: 'https://downloads.example.com/' });
        try {
          const response = await linkFor(configured.app, configured.file.id, configured.client.token, { Host: 'portal.example.test:8443' });
          const { url, install_command } = response.body.data;
          expect(url).toMatch(new RegExp(`^https://downloads\\.example\\.com/api/download/${configured.file.id}/signed\\?expires=`));
          expect(install_command).toContain(`'${url}'`);
        } finally {
          await configured.app.close();
        }
      });
    });

    it('runs: the download command fetches the file with curl and sha256sum accepts it', async () => {
      const { download_command: command } = await signedLink(deb.id, alice.token);
      const dir = mkdtempSync(join(tmpdir(), 'portal-install-'));
      try {
        // Asynchronously: the server answering curl runs in this very process.
        const { stdout: output } = await promisify(execFile)('sh', ['-c', command], { cwd: dir });
        expect(output).toContain('streamhub_2.1.0_amd64.deb: OK');
        expect(sha256(readFileSync(join(dir, 'streamhub_2.1.0_amd64.deb')))).toBe(deb.file_hash);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
