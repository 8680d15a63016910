import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeviceEntity } from '../src/modules/devices/device.entity';
import { issueLicense } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

const run = promisify(execFile);

describe(`test-script archive (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let dir: string;
  let portal: string;
  const script = () => join(dir, 'streamhub-license-test', 'streamhub-license-test.mjs');

  beforeAll(async () => {
    t = await startTestApp();
    portal = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    dir = mkdtempSync(join(tmpdir(), 'license-test-script-'));
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('serves a tar.gz without a session that unpacks to the script and its README', async () => {
    const response = await t
      .api()
      .get('/api/license-server/test-script.tar.gz')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe('attachment; filename="streamhub-license-test.tar.gz"');
    writeFileSync(join(dir, 'archive.tar.gz'), response.body as Buffer);
    execFileSync('tar', ['-xzf', 'archive.tar.gz'], { cwd: dir });
    expect(statSync(script()).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dir, 'streamhub-license-test', 'README.md'), 'utf8')).toMatch(/streamhub-license-test\.mjs/);
  });

  it('activates with a license key, validates on an interval, and stops non-zero when the license is revoked', async () => {
    const license = await issueLicense(t, { max_activations: 2 });
    const child = spawn(
      process.execPath,
      [script(), '--url', portal, '--key', license.license_key, '--interval', '0.2', '--name', 'Script box'],
      { cwd: dir },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const devices = t.dataSource.getRepository(DeviceEntity);
    const deadline = Date.now() + 15_000;
    while (!output.includes('validate  VALID') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(output).toMatch(/activate {2}VALID/);
    expect(output).toMatch(/validate {2}VALID/);
    const [device] = await devices.findBy({ license_id: license.id });
    expect(device).toMatchObject({ device_name: 'Script box', status: 'active', version: 'license-test' });
    const state = JSON.parse(readFileSync(join(dir, 'streamhub-device.json'), 'utf8'));
    expect(state.server_uid).toBe(device.server_uid);
    expect(statSync(join(dir, 'streamhub-device.json')).mode & 0o777).toBe(0o600);

    await t
      .api()
      .post(`/api/admin/licenses/${license.id}/revoke`)
      .set(bearer(await t.adminToken()))
      .expect(200);
    expect(await exited).toBe(2);
    expect(output).toMatch(/REVOKED/);
  });

  it('keeps its identity between runs and can give its seat back', async () => {
    const license = await issueLicense(t, { max_activations: 1 });
    const once = await run(
      process.execPath,
      [script(), '--url', portal, '--key', license.license_key, '--interval', '0.1', '--max-checks', '1'],
      { cwd: dir },
    );
    expect(once.stdout).toMatch(/validate {2}VALID/);
    await run(process.execPath, [script(), '--url', portal, '--key', license.license_key, '--interval', '0.1', '--max-checks', '1'], {
      cwd: dir,
    });
    expect(await t.dataSource.getRepository(DeviceEntity).countBy({ license_id: license.id })).toBe(1);
    const gone = await run(process.execPath, [script(), '--url', portal, '--key', license.license_key, '--deactivate'], { cwd: dir });
    expect(gone.stdout).toMatch(/DEACTIVATED/);
    const [device] = await t.dataSource.getRepository(DeviceEntity).findBy({ license_id: license.id });
    expect(device.deactivated_at).not.toBeNull();
  });

  it('refuses an answer signed with another key than the one it pinned', async () => {
    const statePath = join(dir, 'streamhub-device.json');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    writeFileSync(statePath, JSON.stringify({ ...state, key_id: 'someone-else' }));
    const license = await issueLicense(t);
    await expect(
      run(process.execPath, [script(), '--url', portal, '--key', license.license_key, '--max-checks', '1'], { cwd: dir }),
    ).rejects.toMatchObject({ code: 3 });
  });
});
