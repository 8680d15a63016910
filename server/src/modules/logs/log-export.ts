import { csvField } from '../../common/csv';
import type { RawRow } from '../../common/log-listing';
import { isoDate, jsonValue } from '../../common/streamed-export';

/**
 * Export lines written straight from raw rows (as the driver returns them), in the shape of LogEntryDto (see
 * log-entries.ts): no entity, no DTO and no value array per row, since an export writes millions of them.
 */

export const EXPORT_COLUMNS = [
  'id',
  'source',
  'created_at',
  'level',
  'action',
  'message',
  'user_email',
  'ip_address',
  'user_agent',
  'file_name',
  'target_type',
  'target_id',
  'details',
] as const;

export interface LogExportWriter {
  csvLine(row: RawRow): string;
  jsonText(row: RawRow): string;
}

const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const json = (value: unknown) => jsonValue(value as string | number | null);
const jsonDate = (value: unknown) => jsonValue(isoDate(value));

/** Stored context text, when it is a JSON object (it may have been cut at 4,000 characters). */
function contextJson(text: unknown): string {
  if (typeof text !== 'string' || !text) return 'null';
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? text : 'null';
  } catch {
    return 'null';
  }
}

/** The fields every entry has, as JSON members; `id` to `created_at`. */
function common(
  row: RawRow,
  source: string,
  level: string,
  message: string,
  action: unknown,
  userEmail: unknown,
  userAgent: unknown,
): string {
  return (
    `"id":${Number(row.id)},"source":"${source}","level":"${level}","message":${json(message)},"action":${json(action)},` +
    `"user_email":${json(userEmail)},"ip_address":${json(row.ip_address)},"user_agent":${json(userAgent)},"created_at":${jsonDate(row.created_at)}`
  );
}

/** The CSV columns up to `user_agent`. */
function commonCsv(row: RawRow, source: string, level: string, action: unknown, message: string, userEmail: unknown, userAgent: unknown) {
  return (
    `${Number(row.id)},${source},${isoDate(row.created_at)},${level},${csvField(action)},${csvField(message)},` +
    `${csvField(userEmail)},${csvField(row.ip_address)},${csvField(userAgent)}`
  );
}

export const auditWriter: LogExportWriter = {
  jsonText: (row) =>
    `{${common(row, 'local', String(row.level), String(row.message), row.action, row.actor_email, row.user_agent)},` +
    `"file_name":null,"target_type":${json(row.target_type)},"target_id":${json(row.target_id)},"context":${contextJson(row.context)},` +
    `"remote_context":null,"access":null,"download":null}`,
  csvLine: (row) =>
    `${commonCsv(row, 'local', String(row.level), row.action, String(row.message), row.actor_email, row.user_agent)},,` +
    `${csvField(row.target_type)},${csvField(row.target_id)},${csvField(contextJson(row.context))}\r\n`,
};

const remoteLevel = (level: unknown) => (level === 'info' || level === 'warning' || level === 'error' ? level : 'info');
const remoteContext = (row: RawRow) =>
  `{"hostname":${json(row.hostname)},"product":${json(row.product)},"version":${json(row.version)},"server_uid":${json(row.server_uid)},` +
  `"key":${json(row.license_key)},"valid":${Boolean(Number(row.valid))},"code":${json(row.code)},"timestamp":${jsonDate(row.created_at)},` +
  `"origin":${json(row.origin)}}`;

export const remoteWriter: LogExportWriter = {
  jsonText: (row) =>
    `{${common(row, 'remote', remoteLevel(row.level), String(row.message), row.action, null, null)},` +
    `"file_name":null,"target_type":null,"target_id":null,"context":null,"remote_context":${remoteContext(row)},"access":null,"download":null}`,
  csvLine: (row) =>
    `${commonCsv(row, 'remote', remoteLevel(row.level), row.action, String(row.message), null, null)},,,,${csvField(remoteContext(row))}\r\n`,
};

const accessLevel = (status: number) => (status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info');
const accessMessage = (row: RawRow) => `${str(row.method)} ${str(row.path)} ${Number(row.status)} (${Number(row.duration_ms)} ms)`;
const accessDetails = (row: RawRow) =>
  `{"method":${json(row.method)},"route":${json(row.route)},"path":${json(row.path)},"status":${Number(row.status)},` +
  `"duration_ms":${Number(row.duration_ms)},"bytes_out":${Number(row.bytes_out)}}`;

export const accessWriter: LogExportWriter = {
  jsonText: (row) =>
    `{${common(row, 'access', accessLevel(Number(row.status)), accessMessage(row), row.method, row.user_email, row.user_agent)},` +
    `"file_name":null,"target_type":null,"target_id":null,"context":null,"remote_context":null,"access":${accessDetails(row)},"download":null}`,
  csvLine: (row) =>
    `${commonCsv(row, 'access', accessLevel(Number(row.status)), row.method, accessMessage(row), row.user_email, row.user_agent)},,,,` +
    `${csvField(accessDetails(row))}\r\n`,
};

const downloadMessage = (row: RawRow) => `Downloaded ${str(row.file_name)}${row.version ? ` (v${str(row.version)})` : ''}`;
const downloadDetails = (row: RawRow) =>
  `{"version":${json(row.version)},"os_type":${json(row.os_type)},"architecture":${json(row.architecture)},` +
  `"file_size":${json(num(row.file_size))},"via":${json(row.via)}}`;
const fileId = (row: RawRow) => (row.file_id === null || row.file_id === undefined ? null : String(row.file_id));

export const downloadWriter: LogExportWriter = {
  jsonText: (row) =>
    `{${common(row, 'downloads', 'info', downloadMessage(row), 'download', row.user_email, row.user_agent)},` +
    `"file_name":${json(row.file_name)},"target_type":"file","target_id":${json(fileId(row))},"context":null,"remote_context":null,` +
    `"access":null,"download":${downloadDetails(row)}}`,
  csvLine: (row) =>
    `${commonCsv(row, 'downloads', 'info', 'download', downloadMessage(row), row.user_email, row.user_agent)},` +
    `${csvField(row.file_name)},file,${csvField(fileId(row))},${csvField(downloadDetails(row))}\r\n`,
};

/** The system export holds local rows, then remote ones: a remote row is the one with a server_uid. */
export const systemWriter: LogExportWriter = {
  jsonText: (row) => ('server_uid' in row ? remoteWriter : auditWriter).jsonText(row),
  csvLine: (row) => ('server_uid' in row ? remoteWriter : auditWriter).csvLine(row),
};
