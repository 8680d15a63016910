import { get, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PreparedSql } from '../src/database/prepared-sql';
import { AuditLogService } from '../src/modules/logs/audit-log.service';
import { startTestApp, TestApp } from './support/test-app';

/** A large export shares the event loop: other requests are answered while it streams, not after it. */
describe(`exports share the server (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  const ROWS = 40_000;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.get(AuditLogService).flush();
    // Straight into the table (as years of an audit trail would be): tens of thousands of rows, in a few statements.
    const sql = PreparedSql.for(t.dataSource);
    const at = new Date('2026-01-01T00:00:00.000Z');
    for (let start = 0; start < ROWS; start += 5_000) {
      const rows = Array.from({ length: 5_000 }, (_, i) => {
        const n = start + i;
        return [
          'info',
          'user.update',
          `Update user: user${n}@bulk.test`,
          1,
          'admin@bulk.test',
          'user',
          String(n),
          '10.1.2.3',
          'bulk',
          null,
          at,
        ];
      });
      await sql.insertMany(
        'audit_logs',
        [
          'level',
          'action',
          'message',
          'actor_id',
          'actor_email',
          'target_type',
          'target_id',
          'ip_address',
          'user_agent',
          'context',
          'created_at',
        ],
        rows,
      );
    }
  });

  afterAll(() => t?.close());

  const open = (path: string, token?: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      get({ host: '127.0.0.1', port, path, headers: token ? { Authorization: `Bearer ${token}` } : {} }, resolve).on('error', reject);
    });

  it('answers /api/health sent after the first chunk of a large export while that export is still streaming', async () => {
    const token = await t.adminToken();
    const exported = await open('/api/admin/logs/export?type=local&format=csv', token);
    expect(exported.statusCode).toBe(200);

    let exportEnded = false;
    let lines = 0;
    let healthAnsweredDuringExport: boolean | null = null;
    let health: Promise<number> | null = null;
    const ended = new Promise<void>((resolve, reject) => {
      exported.on('data', (chunk: Buffer) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        // The health check goes out once the export's first chunk is here.
        health ??= open('/api/health').then((answer) => {
          healthAnsweredDuringExport = !exportEnded;
          answer.resume();
          return answer.statusCode ?? 0;
        });
      });
      exported.on('end', () => {
        exportEnded = true;
        resolve();
      });
      exported.on('error', reject);
    });
    await ended;
    expect(await health).toBe(200);
    expect(healthAnsweredDuringExport).toBe(true);
    // The header line and every row (and the bootstrap admin's own entries).
    expect(lines).toBeGreaterThan(ROWS);
  });
});
