import { randomBytes } from 'node:crypto';
import { eventually } from './support/distribution';
import { createTestDatabase, TestDatabase } from './support/databases';
import { inDays, nonce, serverUid } from './support/licensing';
import { freePort, PortalProcess, startPortalProcess } from './support/portal-process';
import { ADMIN } from './support/test-app';

const SYNC_TOKEN = 'sync-token-for-the-switch-over-test-0123456789';

interface Answer {
  status: number;
  body: { success?: boolean; message?: string; data?: any; meta?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One portal process with its own database, which the test can stop and start again on the same port and data. */
class Instance {
  process!: PortalProcess;
  /** The admin's session on this instance. */
  token = '';
  private readonly dataDir: string;
  // Kept over restarts, as a deployment keeps it: the signing keys are sealed with a key derived from it.
  private readonly jwtSecret = randomBytes(48).toString('base64url');

  constructor(
    private readonly database: TestDatabase,
    private readonly env: Record<string, string>,
  ) {
    this.dataDir = `/tmp/portal-switch-${randomBytes(6).toString('hex')}`;
  }

  get url(): string {
    return this.process.base;
  }

  async start(env: Record<string, string> = {}): Promise<this> {
    const port = this.process ? String(this.process.port) : '';
    this.process = await startPortalProcess({
      DATA_DIR: this.dataDir,
      JWT_SECRET: this.jwtSecret,
      ...(this.database.url ? { DATABASE_URL: this.database.url } : {}),
      ...(port ? { PORT: port } : {}),
      ...this.env,
      ...env,
    });
    this.token = (await this.call('POST', '/api/admin/login', ADMIN)).body.data.token;
    return this;
  }

  async stop(): Promise<void> {
    this.process.kill('SIGTERM');
    expect(await this.process.exited).toBe(0);
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${this.process.base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  }

  /** The call, which must answer `status`. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<Answer['body']> {
    const answer = await this.call(method, path, body);
    if (answer.status !== status)
      throw new Error(`${method} ${path} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async issueLicense(fields: Record<string, unknown> = {}): Promise<{ id: number; license_key: string }> {
    const body = { product_name: 'StreamHub Pro', user_email: 'owner@portal.test', expires_at: inDays(30), max_activations: 2, ...fields };
    return (await this.expect(201, 'POST', '/api/admin/licenses', body)).data;
  }

  async license(key: string): Promise<Record<string, unknown> | undefined> {
    const list = await this.expect(200, 'GET', `/api/admin/licenses?search=${key}`);
    return list.data.find((license: { license_key: string }) => license.license_key === key);
  }

  /** What a streaming server hears from this portal's activation API. */
  async activation(action: 'activate' | 'validate', license_key: string, server_uid: string): Promise<string> {
    const body = { license_key, server_uid, nonce: nonce(), hostname: 'stream-01.example.net', product: 'StreamHub', version: '2.1.0' };
    return (await this.expect(200, 'POST', `/api/license-server/${action}`, body)).data.code;
  }

  syncStatus() {
    return this.expect(200, 'GET', '/api/admin/license-server').then((body) => body.data);
  }

  health() {
    return this.expect(200, 'GET', '/api/admin/system/health').then((body) => body.data);
  }

  async cleanup(): Promise<void> {
    this.process?.cleanup();
    const { rmSync } = await import('node:fs');
    rmSync(this.dataDir, { recursive: true, force: true });
    await this.database.drop();
  }
}

/**
 * Two real portal processes over HTTP: `portal`, where admins work, and `server`, which becomes its license server
 * after the portal served as its own for a while; the server is stopped and started again on the same address.
 */
describe(`license-server sync you can trust (${process.env.TEST_DB})`, () => {
  let portal: Instance;
  let server: Instance;
  /** A streaming server that activated on the portal before the switch. */
  let early: { key: string; uid: string };

  const configure = async (url: string) => {
    await portal.expect(200, 'PATCH', '/api/admin/settings', { key: 'license_server.api_token', value: SYNC_TOKEN });
    await portal.expect(200, 'PATCH', '/api/admin/settings', { key: 'license_server.url', value: url });
  };
  const fullSyncDone = async (timeoutMs = 30_000) => {
    await eventually('the full sync completes', async () => (await portal.syncStatus()).full_sync?.status === 'completed', timeoutMs);
    return (await portal.syncStatus()).full_sync;
  };

  beforeAll(async () => {
    server = await new Instance(await createTestDatabase(), { LICENSE_SERVER_SYNC_TOKEN: SYNC_TOKEN }).start();
    portal = await new Instance(await createTestDatabase(), {
      LICENSE_SERVER_SYNC_WORKER_SECONDS: '1',
      LICENSE_SERVER_RETRY_SECONDS: '1',
      LICENSE_SERVER_RETRY_MAX_SECONDS: '2',
      LICENSE_SERVER_SYNC_BATCH: '50',
    }).start();
  }, 60_000);
  afterAll(async () => {
    for (const instance of [portal, server]) await instance?.cleanup();
  });

  it('makes licenses issued while the portal was its own license server known to the license server configured later, with their devices', async () => {
    const version = new FormData();
    version.set('version', '2.1.0');
    version.set('release_date', '2025-06-01');
    const uploaded = await fetch(`${portal.url}/api/admin/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${portal.token}` },
      body: version,
    });
    expect(uploaded.status).toBe(201);
    const licenses = [];
    for (let i = 0; i < 120; i++) licenses.push(await portal.issueLicense({ user_email: `early${i}@portal.test` }));
    early = { key: licenses[0].license_key, uid: serverUid() };
    expect(await portal.activation('activate', early.key, early.uid)).toBe('VALID');
    // What the operator saw: the license server knows nothing of them.
    expect(await server.activation('validate', early.key, early.uid)).toBe('NOT_FOUND');

    await configure(server.url);
    const run = await fullSyncDone();
    expect(run).toMatchObject({
      reason: 'configured',
      target_url: server.url,
      phase: 'done',
      versions: { done: 1, total: 1 },
      licenses: { done: 120, total: 120 },
      devices: { done: 1, total: 1 },
      attempts: 0,
      last_error: null,
    });
    expect(await server.license(licenses[119].license_key)).toMatchObject({ user_email: 'early119@portal.test', status: 'active' });
    // The streaming server that activated on the portal is valid on the license server, on the seat it holds there.
    expect(await server.activation('validate', early.key, early.uid)).toBe('VALID');
    expect(await server.license(early.key)).toMatchObject({ current_activations: 1 });
    const versions = await server.expect(200, 'GET', '/api/admin/versions?search=2.1.0');
    expect(versions.data.map((v: { version: string }) => v.version)).toEqual(['2.1.0']);

    const status = await portal.syncStatus();
    expect(status).toMatchObject({ external: true, url: server.url, pending: { licenses: 0, queued: 0 }, failures: [] });
    expect(Date.parse(status.last_push_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('resumes a full sync that failed where it stopped, and System Health says why it is failing meanwhile', async () => {
    // The license server now takes only small requests: a batch of licenses with long e-mail addresses is refused.
    await server.stop();
    await server.start({ BODY_LIMIT: '14kb' });
    for (let i = 0; i < 30; i++) await portal.issueLicense({ user_email: `small${i}@portal.test` });
    for (let i = 0; i < 50; i++) await portal.issueLicense({ user_email: `long${i}@${'mail.'.repeat(30)}portal.test` });

    const started = await portal.expect(202, 'POST', '/api/admin/license-server/full-sync');
    expect(started).toMatchObject({ message: 'Full sync started', data: { reason: 'manual', status: 'running', phase: 'versions' } });
    await eventually('the full sync fails on the batch of long licenses', async () => (await portal.syncStatus()).full_sync.attempts > 0);
    const failing = (await portal.syncStatus()).full_sync;
    expect(failing).toMatchObject({ status: 'running', phase: 'licenses', licenses: { done: 150, total: 200 } });
    expect(failing.last_error).toMatch(new RegExp(`^The license server at ${server.url} answered 413: `));
    const health = await portal.health();
    expect(health.status).toBe('warning');
    expect(health.reasons).toContain(`The full sync with the license server is failing: ${failing.last_error}`);
    expect(health.license_server).toMatchObject({ reachable: true, full_sync: { status: 'running', phase: 'licenses' } });

    await server.stop();
    await server.start();
    const run = await fullSyncDone();
    // Continued from its cursor: the 150 licenses pushed before the failure were not pushed again.
    expect(run).toMatchObject({
      phase: 'done',
      licenses: { done: 200, total: 200 },
      devices: { done: 1, total: 1 },
      attempts: 0,
      last_error: null,
    });
  });

  it('queues a push while the license server is down, keeps it over a restart, and delivers it when the server is back', async () => {
    await eventually('the queue is empty', async () => (await portal.syncStatus()).pending.queued === 0);
    await server.stop();
    const license = await portal.issueLicense({ user_email: 'while-down@portal.test' });
    await eventually('the failed push waits in the retry queue', async () =>
      (await portal.syncStatus()).failures.some((item: { key: string }) => item.key === license.license_key),
    );
    const queued = (await portal.syncStatus()).failures.find((item: { key: string }) => item.key === license.license_key);
    expect(queued).toMatchObject({ kind: 'license', attempts: expect.any(Number) });
    expect(queued.last_error).toMatch(new RegExp(`^The license server at ${server.url} cannot be reached \\(ECONNREFUSED\\)$`));
    const health = await portal.health();
    expect(health.status).toBe('warning');
    expect(health.license_server).toMatchObject({ reachable: false, pending: { licenses: 1 } });
    expect(health.reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^The license server at .* cannot be reached \(ECONNREFUSED\)$/),
        expect.stringMatching(/^\d+ push\(es\) to the license server wait in the retry queue: The license server at .* cannot be reached/),
      ]),
    );

    // The queue is in the database: a restart of the portal keeps it.
    await portal.stop();
    await portal.start();
    const afterRestart = await portal.syncStatus();
    expect(afterRestart.failures.map((item: { key: string }) => item.key)).toContain(license.license_key);

    await server.start();
    await eventually('the queued push is delivered', async () => (await portal.syncStatus()).pending.queued === 0, 20_000);
    expect(await server.license(license.license_key)).toMatchObject({ user_email: 'while-down@portal.test', status: 'active' });
    const uid = serverUid();
    expect(await server.activation('activate', license.license_key, uid)).toBe('VALID');
    const healthy = await portal.health();
    expect(healthy.license_server).toMatchObject({ reachable: true, problems: [], pending: { licenses: 0, queued: 0 } });
  });

  it('reconciles: lists what is missing there, missing here and different, and one repair brings both sides together', async () => {
    const [gone, changed] = [await portal.issueLicense(), await portal.issueLicense({ max_activations: 3 })];
    await eventually(
      'both reach the license server',
      async () => !!(await server.license(changed.license_key)) && !!(await server.license(gone.license_key)),
    );
    await server.expect(200, 'DELETE', `/api/admin/licenses/${(await server.license(gone.license_key))!.id}`);
    await server.expect(200, 'PUT', `/api/admin/licenses/${(await server.license(changed.license_key))!.id}`, { max_activations: 9 });
    const made = await server.issueLicense({ user_email: 'made-there@portal.test' });

    const reconciled = await portal.expect(200, 'POST', '/api/admin/license-server/reconcile');
    expect(reconciled.message).toBe('Reconcile completed');
    expect(reconciled.data.reconcile).toMatchObject({
      status: 'completed',
      missing_there: 1,
      missing_here: 1,
      different: 1,
      versions: { here: 1, there: 1 },
    });
    expect(reconciled.data.reconcile.licenses.here).toBe(reconciled.data.reconcile.licenses.there);
    expect(reconciled.data.drift).toEqual(
      expect.arrayContaining([
        { kind: 'license', key: gone.license_key, drift: 'missing_there' },
        { kind: 'license', key: changed.license_key, drift: 'different' },
        { kind: 'license', key: made.license_key, drift: 'missing_here' },
      ]),
    );
    expect(reconciled.meta).toEqual({ total: 3, page: 1, limit: 50, pages: 1 });
    const report = await portal.expect(200, 'GET', '/api/admin/license-server/reconcile?limit=1&page=2');
    expect(report.data.drift).toHaveLength(1);
    expect(report.meta).toEqual({ total: 3, page: 2, limit: 1, pages: 3 });
    const health = await portal.health();
    expect(health.status).toBe('warning');
    expect(health.reasons).toContain('The last reconcile found 3 record(s) out of step with the license server');

    const repaired = await portal.expect(200, 'POST', '/api/admin/license-server/reconcile/repair');
    expect(repaired.message).toBe('Repair completed: 0 record(s) still out of step');
    expect(repaired.data).toMatchObject({
      pushed_licenses: 2,
      pushed_versions: 0,
      pulled_licenses: 1,
      reconcile: { missing_there: 0, missing_here: 0, different: 0 },
    });
    expect(await server.license(gone.license_key)).toMatchObject({ status: 'active' });
    expect(await server.license(changed.license_key)).toMatchObject({ max_activations: 3 });
    expect(await portal.license(made.license_key)).toMatchObject({ user_email: 'made-there@portal.test' });
    expect((await portal.health()).license_server.problems).toEqual([]);
  });

  it('counts a failed reconcile in System Health only while its license server is the one configured', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    await configure(nowhere);
    const failed = await portal.call('POST', '/api/admin/license-server/reconcile');
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain(`The license server at ${nowhere} cannot be reached`);
    const reason = expect.stringMatching(/^The last reconcile with the license server failed: /);
    expect((await portal.health()).license_server.problems).toContainEqual(reason);

    await configure(server.url);
    await fullSyncDone();
    expect((await portal.syncStatus()).reconcile).toMatchObject({ status: 'failed', target_url: nowhere });
    expect((await portal.health()).license_server.problems).not.toContainEqual(reason);
  });

  it('refuses the sync actions with 409 while the portal is its own license server, and changes nothing', async () => {
    await portal.expect(200, 'PATCH', '/api/admin/settings', { key: 'license_server.url', value: '' });
    const before = await portal.syncStatus();
    for (const path of ['full-sync', 'reconcile', 'reconcile/repair', 'retry']) {
      const refused = await portal.expect(409, 'POST', `/api/admin/license-server/${path}`);
      expect(refused.message).toBe('No external license server is configured: this portal is its own license server');
    }
    expect(await portal.syncStatus()).toEqual(before);
    expect(before).toMatchObject({ external: false, full_sync: { status: 'completed' }, pending: { licenses: 0, queued: 0 } });
  });
});
