import { csvRow } from '../../common/csv';
import type { RawRow } from '../../common/log-listing';
import type { LogEntryDto } from './dto/logs.dto';
import { fromAccess, fromAudit, fromDownload, fromRemote } from './log-entries';
import { accessWriter, auditWriter, downloadWriter, EXPORT_COLUMNS, LogExportWriter, remoteWriter, systemWriter } from './log-export';

/** What the list shows of a row (entity → LogEntryDto), as the export wrote it before it wrote raw rows. */
const csvOf = (entry: LogEntryDto) =>
  csvRow([
    ...EXPORT_COLUMNS.slice(0, -1).map((column) => entry[column as keyof LogEntryDto]),
    JSON.stringify(entry.remote_context ?? entry.access ?? entry.download ?? entry.context ?? null),
  ]);

function expectSame(writer: LogExportWriter, raw: RawRow, entry: LogEntryDto) {
  expect(JSON.parse(writer.jsonText(raw))).toEqual(JSON.parse(JSON.stringify(entry)));
  expect(writer.csvLine(raw)).toBe(csvOf(entry));
}

describe('log export lines from raw rows', () => {
  const at = new Date('2026-11-25T10:11:12.345Z');
  // Both engines' raw forms: MySQL (Date, BIGINT as text) and SQLite (UTC text).
  for (const [engine, created] of [
    ['mysql', at],
    ['sqlite', '2026-11-25 10:11:12.345'],
  ] as const) {
    it(`writes audit, remote, access and download rows as the list shows them (${engine})`, () => {
      const audit = {
        id: 7,
        level: 'warning' as const,
        action: 'auth.login',
        message: '=HYPERLINK("x"), "quoted"',
        actor_id: 3,
        actor_email: 'a@b.test',
        target_type: 'user',
        target_id: '3',
        ip_address: '10.0.0.1',
        user_agent: 'curl',
        context: '{"status":401}',
        created_at: created,
      };
      expectSame(auditWriter, audit, fromAudit({ ...audit, created_at: at }));
      expectSame(systemWriter, audit, fromAudit({ ...audit, created_at: at }));
      const cut = { ...audit, context: '{"status":40' };
      expectSame(auditWriter, cut, fromAudit({ ...cut, created_at: at }));

      const remote = {
        id: '8',
        action: 'validate',
        level: 'debug',
        message: 'ok',
        license_key: 'SH-1',
        server_uid: 'srv',
        hostname: null,
        product: 'P',
        version: '1.0',
        valid: 1,
        code: 'OK',
        ip_address: null,
        origin: null,
        origin_id: null,
        created_at: created,
      };
      const remoteEntity = { ...remote, id: 8, valid: true, created_at: at };
      expectSame(remoteWriter, remote, fromRemote(remoteEntity));
      expectSame(systemWriter, remote, fromRemote(remoteEntity));

      const access = {
        id: 9,
        method: 'GET',
        route: '/api/x/:id',
        path: '/api/x/1,2',
        status: '503',
        duration_ms: 12,
        bytes_out: 300,
        user_id: null,
        user_email: null,
        ip_address: '::1',
        user_agent: '-x',
        created_at: created,
      };
      expectSame(accessWriter, access, fromAccess({ ...access, status: 503, created_at: at }));

      const download = {
        id: 10,
        user_id: 1,
        user_email: 'u@x.test',
        file_id: 4,
        file_name: 'a "b".zip',
        version: null,
        os_type: 'linux',
        architecture: 'x64',
        file_size: '5000000000',
        ip_address: null,
        user_agent: null,
        via: 'link' as const,
        created_at: created,
      };
      expectSame(downloadWriter, download, fromDownload({ ...download, file_size: 5_000_000_000, created_at: at }));
    });
  }
});
