import { ScheduledJobsService } from '../src/modules/jobs/scheduled-jobs.service';
import { AccessLogService } from '../src/modules/access-log/access-log.service';
import type { NewAccessLogRow } from '../src/modules/access-log/access-log.service';
import { AuditLogService } from '../src/modules/logs/audit-log.service';
import { LogRetentionService } from '../src/modules/logs/log-retention.service';
import { RemoteLogsService } from '../src/modules/logs/remote-logs.service';
import { asBuffer, createVersion, someBytes, uploadFile } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid } from './support/licensing';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

/** The operator's view: the audit trail, System Logs, the Dashboard and System Health. */

/** An access-log row to store: a GET answered 200 unless `fields` say otherwise (route defaults to the path). */
function accessRow(fields: Partial<NewAccessLogRow> & { path: string }): NewAccessLogRow {
  return {
    method: 'GET',
    route: fields.path,
    status: 200,
    duration_ms: 1,
    bytes_out: 100,
    user_id: null,
    user_email: null,
    ip_address: null,
    user_agent: null,
    created_at: new Date(),
    ...fields,
  };
}
describe(`operations: audit trail, logs, dashboard (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let client: { token: string; id: number; email: string };

  // Requests name their client address in X-Forwarded-For, as a proxy on loopback would.
  const FROM = '10.20.30.40';
  const asAdmin = <T extends { set(field: string, value: string): T }>(request: T) =>
    request.set('Authorization', `Bearer ${admin}`).set('X-Forwarded-For', FROM);
  const flushLogs = async () => {
    await t.app.get(AuditLogService).flush();
    await t.app.get(AccessLogService).flush();
    await t.app.get(RemoteLogsService).flush();
  };
  const systemLogs = async (query: Record<string, string | number> = {}) => {
    await flushLogs();
    return (await asAdmin(t.api().get('/api/admin/logs/system').query(query)).expect(200)).body;
  };
  const localLogs = async (query: Record<string, string | number> = {}) =>
    (await systemLogs({ source: 'local', ...query })).data.local_logs as LogEntry[];

  interface LogEntry {
    id: number;
    source: string;
    level: string;
    action: string;
    message: string;
    user_email: string | null;
    ip_address: string | null;
    user_agent: string | null;
    created_at: string;
    target_type: string | null;
    target_id: string | null;
    context: Record<string, unknown> | null;
    remote_context: Record<string, unknown> | null;
    access: Record<string, unknown> | null;
  }

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'loopback' });
    admin = await t.adminToken();
    client = await t.signUpClient();
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('the audit trail', () => {
    it('records an admin action with the actor, target, address and user agent, and shows it in Recent Activity', async () => {
      const created = await asAdmin(t.api().post('/api/admin/users'))
        .set('User-Agent', 'audit-test-agent/1.0')
        .send({ email: 'audited@portal.test', password: 'audited-pass-1', first_name: 'Audi' })
        .expect(201);
      await flushLogs();
      const activity = (await asAdmin(t.api().get('/api/admin/activity')).expect(200)).body.data;
      expect(activity.length).toBeLessThanOrEqual(5);
      expect(activity[0]).toMatchObject({
        type: 'info',
        action: 'user.create',
        description: 'Create user: audited@portal.test',
        subject: 'audited@portal.test',
        status: null,
        reason: null,
        user_name: ADMIN.email,
        ip_address: FROM,
      });
      const [entry] = await localLogs({ search: 'user.create' });
      expect(entry).toMatchObject({
        source: 'local',
        level: 'info',
        action: 'user.create',
        user_email: ADMIN.email,
        ip_address: FROM,
        user_agent: 'audit-test-agent/1.0',
        target_type: 'user',
        target_id: String(created.body.data.id),
      });
      // The fields sent are named, but a password's value never reaches the log.
      expect(entry.context).toMatchObject({ method: 'POST', route: '/api/admin/users', fields: ['email', 'password', 'first_name'] });
      expect(JSON.stringify(entry)).not.toContain('audited-pass-1');
      // A refusal keeps the parts of its message as fields too, for screens to say it in their language.
      await asAdmin(t.api().post('/api/admin/users')).send({ email: 'audited@portal.test', password: 'audited-pass-1' }).expect(409);
      await flushLogs();
      const [refused] = (await asAdmin(t.api().get('/api/admin/activity')).expect(200)).body.data;
      expect(refused).toMatchObject({
        type: 'warning',
        action: 'user.create',
        subject: 'audited@portal.test',
        status: 409,
        reason: expect.any(String),
      });
      expect(refused.description).toBe(`Create user refused (409) for audited@portal.test: ${refused.reason}`);
    });

    it('records a refused action at level warning with its status and reason', async () => {
      await asAdmin(t.api().post('/api/admin/users')).send({ email: 'audited@portal.test', password: 'audited-pass-1' }).expect(409);
      const [entry] = await localLogs({ search: 'user.create', level: 'warning' });
      expect(entry).toMatchObject({ level: 'warning', action: 'user.create', context: expect.objectContaining({ status: 409 }) });
      expect(entry.message).toBe('Create user refused (409) for audited@portal.test: This email is already registered.');
    });

    it('records security events: sign-in success and failure, throttling-free logout, and a customer at an admin route', async () => {
      await t
        .api()
        .post('/api/login')
        .set('X-Forwarded-For', '10.9.9.9')
        .send({ email: client.email, password: 'not-the-password' })
        .expect(401);
      const other = await t.signUpClient();
      await t.api().get('/api/admin/users').set(bearer(other.token)).set('X-Forwarded-For', '10.9.9.8').expect(403);
      await t.api().post('/api/logout').set(bearer(other.token)).expect(200);

      const failed = (await localLogs({ search: '10.9.9.9' }))[0];
      expect(failed).toMatchObject({ action: 'auth.login', level: 'warning', user_email: client.email, ip_address: '10.9.9.9' });
      expect(failed.message).toBe(`Sign in refused (401) for ${client.email}: Invalid email or password. Please try again.`);
      const denied = (await localLogs({ search: '10.9.9.8' }))[0];
      expect(denied).toMatchObject({ action: 'auth.access_denied', level: 'warning', user_email: other.email });
      const actions = (await localLogs({ user: other.email, limit: 100 })).map((entry) => entry.action);
      expect(actions).toEqual(
        expect.arrayContaining(['auth.register', 'auth.verify_email', 'auth.login', 'auth.logout', 'auth.access_denied']),
      );
    });
  });

  describe('System Logs', () => {
    it('lists local and remote entries together, newest first, and each part alone', async () => {
      const license = await issueLicense(t);
      const uid = serverUid();
      await callLicenseServer(t, 'activate', {
        license_key: license.license_key,
        server_uid: uid,
        hostname: 'edge-1.example.net',
        product: 'StreamHub',
        version: '2.1.0',
      }).expect(200);
      const both = await systemLogs({ limit: 10 });
      expect(both.meta).toMatchObject({ page: 1, limit: 10, total_capped: false });
      const merged: LogEntry[] = [...both.data.local_logs, ...both.data.remote_logs];
      expect(merged).toHaveLength(10);
      const times = merged.map((e) => Date.parse(e.created_at)).sort((a, b) => b - a);
      expect(Date.parse(merged.reduce((a, b) => (a.created_at > b.created_at ? a : b)).created_at)).toBe(times[0]);

      const remote = (await systemLogs({ source: 'remote', search: uid })).data;
      expect(remote.local_logs).toEqual([]);
      expect(remote.remote_logs[0]).toMatchObject({
        source: 'remote',
        level: 'info',
        action: 'activate',
        remote_context: {
          hostname: 'edge-1.example.net',
          product: 'StreamHub',
          version: '2.1.0',
          server_uid: uid,
          key: license.license_key,
          valid: true,
          code: 'VALID',
        },
      });
    });

    it('searches by e-mail, address, action and words of the message, and filters by level, user and time', async () => {
      await asAdmin(t.api().post('/api/admin/users')).send({ email: 'findme-xyz@portal.test', password: 'findme-pass-1' }).expect(201);
      expect((await localLogs({ search: 'findme-xyz' })).map((e) => e.action)).toEqual(['user.create']);
      expect((await localLogs({ search: 'FINDME-XYZ@portal' }))[0]?.action).toBe('user.create');
      expect((await localLogs({ search: 'Create user' })).length).toBeGreaterThanOrEqual(2);
      expect((await localLogs({ search: 'auth.log' })).every((e) => e.action.startsWith('auth.log'))).toBe(true);
      expect((await localLogs({ search: '10.20.30' })).every((e) => e.ip_address === FROM)).toBe(true);
      expect((await localLogs({ level: 'warning' })).every((e) => e.level === 'warning')).toBe(true);
      expect((await localLogs({ user: ADMIN.email })).every((e) => e.user_email === ADMIN.email)).toBe(true);
      const future = new Date(Date.now() + 3600_000).toISOString();
      expect(await localLogs({ from: future })).toEqual([]);
      expect((await localLogs({ to: future })).length).toBeGreaterThan(0);
      await asAdmin(t.api().get('/api/admin/logs/system').query({ from: 'yesterday' })).expect(400);
      await asAdmin(t.api().get('/api/admin/logs/system').query({ level: 'loud' })).expect(400);
    });

    it('sorts on created_at both ways and pages with totals', async () => {
      const newest = await localLogs({ limit: 3 });
      const oldest = await localLogs({ limit: 3, order: 'asc' });
      expect(newest[0].created_at >= newest[2].created_at).toBe(true);
      expect(oldest[0].created_at <= oldest[2].created_at).toBe(true);
      expect(oldest[0].id).toBeLessThan(newest[0].id);
      const first = await systemLogs({ source: 'local', limit: 2, page: 1 });
      const second = await systemLogs({ source: 'local', limit: 2, page: 2 });
      expect(first.meta.total).toBeGreaterThan(4);
      expect(first.meta.pages).toBe(Math.ceil(first.meta.total / 2));
      expect(second.data.local_logs[0].id).not.toBe(first.data.local_logs[0].id);
    });

    it('keeps an access log of API requests with the route, status, time and user, but not of /api/health', async () => {
      await t.api().get('/api/health').expect(200);
      await asAdmin(t.api().get('/api/admin/users/999999')).expect(404);
      await flushLogs();
      const access = (await asAdmin(t.api().get('/api/admin/logs/access').query({ search: '/api/admin/users/999999' })).expect(200)).body;
      expect(access.data[0]).toMatchObject({
        source: 'access',
        level: 'warning',
        user_email: ADMIN.email,
        ip_address: FROM,
        access: { method: 'GET', route: '/api/admin/users/:id', path: '/api/admin/users/999999', status: 404 },
      });
      expect(access.data[0].access.duration_ms).toBeGreaterThanOrEqual(0);
      expect(access.data[0].access.bytes_out).toBeGreaterThan(0);
      const health = (await asAdmin(t.api().get('/api/admin/logs/access').query({ search: '/api/health' })).expect(200)).body;
      expect(health.data).toEqual([]);
      const byStatus = (await asAdmin(t.api().get('/api/admin/logs/access').query({ search: '404' })).expect(200)).body;
      expect(byStatus.data.every((e: LogEntry) => e.access!.status === 404)).toBe(true);
    });

    it('finds the newest requests under a path prefix, in order, behind many newer requests that do not match', async () => {
      const hourAgo = Date.now() - 3600_000;
      const request = (path: string, at: number) =>
        accessRow({ route: path, path, ip_address: '10.9.9.9', user_agent: 'test', created_at: new Date(at) });
      // 13,440 requests under the prefix, 100 ms apart: 46 paths (the path itself and 45 longer ones), each
      // requested 224 times, so that each way MariaDB reads a prefix is taken (see LogTableRepository.ordered).
      const paths = Array.from({ length: 13_440 }, (_, i) => (i % 4 ? `/api/prefix-test/items/${i % 60}` : '/api/prefix-test/items'));
      const matching = paths.map((path, i) => request(path, hourAgo + i * 100));
      // Newer than all of them: more requests elsewhere than a search first looks through.
      const newer = Array.from({ length: 700 }, (_, i) => request('/api/other-test', hourAgo + 2_000_000 + i));
      await t.app.get(AccessLogService).storeRows([...matching, ...newer]);
      const search = async (term: string, page = 1) =>
        (await asAdmin(t.api().get('/api/admin/logs/access').query({ search: term, limit: 25, page })).expect(200)).body;
      const newestFirst = (prefix: string) => [...paths].reverse().filter((path) => path.startsWith(prefix));

      // Many rows under 46 paths (MariaDB sorts the matches of a prefix this wide).
      const wide = newestFirst('/api/prefix-test/items');
      expect((await search('/api/prefix-test/items')).data.map((e: LogEntry) => e.access!.path)).toEqual(wide.slice(0, 25));
      expect((await search('/api/prefix-test/items')).meta).toMatchObject({ total: 10_000, total_capped: true });
      expect((await search('/api/prefix-test/items', 3)).data.map((e: LogEntry) => e.access!.path)).toEqual(wide.slice(50, 75));
      // 2,016 rows under 9 paths (MariaDB reads each path's newest rows along its index).
      const narrow = newestFirst('/api/prefix-test/items/1');
      expect(narrow).toHaveLength(2016);
      const first = await search('/api/prefix-test/items/1');
      expect(first.data.map((e: LogEntry) => e.access!.path)).toEqual(narrow.slice(0, 25));
      expect(first.meta.total).toBe(narrow.length);
      expect((await search('/api/prefix-test/items/1', 2)).data.map((e: LogEntry) => e.access!.path)).toEqual(narrow.slice(25, 50));
      // 224 rows under one path (MariaDB reads them as they are and sorts them).
      const few = await search('/api/prefix-test/items/59');
      expect(few.data.map((e: LogEntry) => e.access!.path)).toEqual(newestFirst('/api/prefix-test/items/59').slice(0, 25));
      expect(few.meta.total).toBe(224);
      expect((await search('/api/prefix-test/nothing')).data).toEqual([]);
    });

    it('lists downloads', async () => {
      const version = await createVersion(t, '7.0.1');
      const file = await uploadFile(t, { version_id: version.id, name: 'streamhub-7.0.1.zip', bytes: someBytes(2000) });
      await t.api().get(`/api/download/${file.id}`).set(bearer(client.token)).buffer(true).parse(asBuffer).expect(200);
      await t.app.get(AuditLogService).flush();
      await eventuallyDownloads(file.file_name);
    });

    async function eventuallyDownloads(name: string) {
      for (let i = 0; i < 50; i++) {
        const list = (await asAdmin(t.api().get('/api/admin/logs/downloads').query({ search: name })).expect(200)).body;
        if (list.data.length) {
          expect(list.data[0]).toMatchObject({
            source: 'downloads',
            file_name: name,
            user_email: client.email,
            download: { version: '7.0.1' },
          });
          return;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error('the download was not logged');
    }

    it('exports a log as {type}_logs_{date}.json and as CSV, formulas neutralised', async () => {
      await t.api().post('/api/login').send({ email: '=HYPERLINK("http://evil")', password: 'x' }).expect(401);
      await flushLogs();
      const date = new Date().toISOString().slice(0, 10);
      const json = await asAdmin(t.api().get('/api/admin/logs/export').query({ type: 'local' })).expect(200);
      expect(json.headers['content-disposition']).toBe(`attachment; filename="local_logs_${date}.json"`);
      const entries = JSON.parse(json.text) as LogEntry[];
      expect(entries.length).toBeGreaterThan(5);
      expect(entries.every((e) => e.source === 'local')).toBe(true);
      expect(entries[0].id).toBeLessThan(entries[entries.length - 1].id);

      const csv = await asAdmin(t.api().get('/api/admin/logs/export').query({ type: 'local', format: 'csv', search: 'auth.login' })).expect(
        200,
      );
      expect(csv.headers['content-disposition']).toBe(`attachment; filename="local_logs_${date}.csv"`);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe(
        'id,source,created_at,level,action,message,user_email,ip_address,user_agent,file_name,target_type,target_id,details',
      );
      expect(csv.text).toContain(`"'=hyperlink(""http://evil"")"`);
      expect(csv.text).not.toMatch(/,=hyperlink/);
      await asAdmin(t.api().get('/api/admin/logs/export').query({ type: 'everything' })).expect(400);
    });

    it('says "more than 10,000" for a log that holds more, and counts again once it is cleared', async () => {
      const hourAgo = Date.now() - 3600_000;
      const rows = Array.from({ length: 10_050 }, (_, i) => accessRow({ path: '/api/capped-test', created_at: new Date(hourAgo + i) }));
      await t.app.get(AccessLogService).storeRows(rows);
      const list = async (query: Record<string, string> = {}) =>
        (
          await asAdmin(
            t
              .api()
              .get('/api/admin/logs/access')
              .query({ limit: 5, ...query }),
          ).expect(200)
        ).body.meta;
      expect(await list()).toMatchObject({ total: 10_000, total_capped: true });
      // Asked again, the count kept from the first answer.
      expect(await list()).toMatchObject({ total: 10_000, total_capped: true });
      expect(await list({ search: '/api/capped-test' })).toMatchObject({ total: 10_000, total_capped: true });
      expect(await list({ search: '/api/capped-test' })).toMatchObject({ total: 10_000, total_capped: true });
      await asAdmin(t.api().delete('/api/admin/logs')).send({ type: 'access' }).expect(200);
      expect((await list()).total_capped).toBe(false);
      expect(await list({ search: '/api/capped-test' })).toMatchObject({ total: 0, total_capped: false });
    });

    it('clears one log type, never the audit trail, and records who cleared what', async () => {
      await asAdmin(t.api().delete('/api/admin/logs')).send({ type: 'local' }).expect(400);
      const cleared = await asAdmin(t.api().delete('/api/admin/logs')).send({ type: 'access' }).expect(200);
      expect(cleared.body.data).toEqual({ type: 'access', cleared: ['access'] });
      await flushLogs();
      // Only the DELETE's own row may be there (it is logged once it has been answered).
      const left = (await asAdmin(t.api().get('/api/admin/logs/access').query({ limit: 100 })).expect(200)).body.data as LogEntry[];
      expect(left.every((e) => e.access!.method === 'DELETE' || e.access!.route === '/api/admin/logs/access')).toBe(true);

      await asAdmin(t.api().delete('/api/admin/logs')).send({ type: 'system' }).expect(200);
      const after = await systemLogs({});
      expect(after.data.remote_logs).toEqual([]);
      expect(after.data.local_logs.length).toBeGreaterThan(0);
      const [clearing] = await localLogs({ search: 'logs.clear' });
      expect(clearing).toMatchObject({
        action: 'logs.clear',
        user_email: ADMIN.email,
        level: 'info',
        context: expect.objectContaining({ values: { type: 'system' } }),
      });
    });

    it('prunes rows past retention in batches and keeps the newer ones', async () => {
      const old = new Date(Date.now() - 100 * 24 * 3600 * 1000);
      const audit = t.app.get(AuditLogService);
      await audit.record({ level: 'info', action: 'test.old', message: 'an old entry' });
      await audit.record({ level: 'info', action: 'test.new', message: 'a new entry' });
      await t.dataSource.query(`UPDATE audit_logs SET created_at = ? WHERE action = 'test.old'`, [
        t.config.database.type === 'sqlite' ? old.toISOString().replace('T', ' ').replace('Z', '') : old,
      ]);
      const removed = await t.app.get(LogRetentionService).prune();
      expect(removed.audit).toBe(1);
      expect(await localLogs({ search: 'test.old' })).toEqual([]);
      expect((await localLogs({ search: 'test.new' })).map((e) => e.action)).toEqual(['test.new']);
    });
  });

  describe('dashboard and health', () => {
    it('answers the statistics the database holds, with the previous period, and the system activity', async () => {
      const data = (await asAdmin(t.api().get('/api/admin/dashboard')).expect(200)).body.data;
      const [{ n: users }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM users');
      const [{ n: licenses }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM licenses');
      expect(data.statistics.users.total).toBe(Number(users));
      expect(data.statistics.licenses.total).toBe(Number(licenses));
      expect(data.statistics.downloads.total).toBeGreaterThanOrEqual(1);
      expect(data.statistics.previous_period).toMatchObject({ users_total: 0, licenses_active: 0, downloads_total: 0 });
      expect(data.statistics.orders).toMatchObject({ currency: expect.any(String), revenue_total: expect.any(Number) });
      expect(data.system_activity.server_uptime).toBeGreaterThanOrEqual(0);
      expect(data.system_activity.database_size).toBeGreaterThan(0);
      expect(data.system_activity.storage_used).toBeGreaterThan(0);
    });

    it('reports system health with the database, storage, disk and scheduled jobs, and warns about a failed job', async () => {
      const jobs = t.app.get(ScheduledJobsService);
      expect(await jobs.run('test-failing-job', 60, async () => Promise.reject(new Error('disk on fire')))).toBe('failed');
      const health = (await asAdmin(t.api().get('/api/admin/system/health')).expect(200)).body.data;
      expect(health.database).toMatchObject({ engine: process.env.TEST_DB === 'mariadb' ? 'mariadb' : 'sqlite', reachable: true });
      expect(health.database.round_trip_ms).toBeGreaterThanOrEqual(0);
      expect(health.storage.file_count).toBeGreaterThan(0);
      expect(health.storage.free_bytes).toBeGreaterThan(0);
      expect(health.status).toBe('warning');
      expect(health.reasons).toContain('Scheduled job test-failing-job failed: disk on fire');
      expect(health.jobs.find((job: { name: string }) => job.name === 'test-failing-job')).toMatchObject({
        last_outcome: 'failed',
        runs: 1,
        failures: 1,
      });
      const [failure] = await localLogs({ search: 'job.failed' });
      expect(failure).toMatchObject({ level: 'error', message: 'Scheduled job test-failing-job failed: disk on fire' });
    });

    it('runs a scheduled job once per period, however many instances fire it', async () => {
      const jobs = t.app.get(ScheduledJobsService);
      let runs = 0;
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => jobs.run('test-once', 60, async () => void runs++)));
      expect(runs).toBe(1);
      expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(4);
    });

    it('charts downloads per day by OS, licenses issued per day and active devices', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const stats = (await asAdmin(t.api().get('/api/admin/stats/downloads')).expect(200)).body.data;
      expect(stats.to).toBe(today);
      expect(stats.downloads_per_day).toHaveLength(30);
      expect(stats.downloads_per_day.at(-1)).toMatchObject({ day: today, total: 1 });
      expect(stats.downloads_by_version).toContainEqual({ version: '7.0.1', downloads: 1 });
      const issuedToday = stats.licenses_per_day.at(-1);
      expect(issuedToday.day).toBe(today);
      expect(issuedToday.trial + issuedToday.paid).toBeGreaterThanOrEqual(1);
      expect(stats.active_devices_per_day.at(-1)).toMatchObject({ day: today, active: 1 });
      await asAdmin(t.api().get('/api/admin/stats/downloads').query({ from: '2025-13-45x' })).expect(400);
    });
  });
});
