import type { AccessLogRow } from '../access-log/access-log.service';
import type { AuditLogEntity } from './audit-log.entity';
import type { DownloadLogEntity } from './download-log.entity';
import type { LogEntryDto } from './dto/logs.dto';
import type { RemoteLogEntity } from './remote-log.entity';

/** A stored JSON context as an object; null when there is none or it is not a JSON object. */
export const parseContext = (json: string | null): Record<string, unknown> | null => {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

type Specific = 'file_name' | 'target_type' | 'target_id' | 'context' | 'remote_context' | 'access' | 'download';

/**
 * An entry with every field, those of other kinds null. Written out as one literal: `{ ...defaults, ...fields }`
 * builds each object on V8's slow path, a large share of a page's CPU.
 */
function entry(fields: Omit<LogEntryDto, Specific> & Partial<Pick<LogEntryDto, Specific>>): LogEntryDto {
  return {
    id: fields.id,
    source: fields.source,
    level: fields.level,
    message: fields.message,
    action: fields.action,
    user_email: fields.user_email,
    ip_address: fields.ip_address,
    user_agent: fields.user_agent,
    file_name: fields.file_name ?? null,
    created_at: fields.created_at,
    target_type: fields.target_type ?? null,
    target_id: fields.target_id ?? null,
    context: fields.context ?? null,
    remote_context: fields.remote_context ?? null,
    access: fields.access ?? null,
    download: fields.download ?? null,
  };
}

export function fromAudit(row: AuditLogEntity): LogEntryDto {
  return entry({
    id: row.id,
    source: 'local',
    level: row.level,
    message: row.message,
    action: row.action,
    user_email: row.actor_email,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    created_at: row.created_at,
    target_type: row.target_type,
    target_id: row.target_id,
    context: parseContext(row.context),
  });
}

export function fromRemote(row: RemoteLogEntity): LogEntryDto {
  return entry({
    id: row.id,
    source: 'remote',
    level: row.level === 'info' || row.level === 'warning' || row.level === 'error' ? row.level : 'info',
    message: row.message,
    action: row.action,
    user_email: null,
    ip_address: row.ip_address,
    user_agent: null,
    created_at: row.created_at,
    remote_context: {
      hostname: row.hostname,
      product: row.product,
      version: row.version,
      server_uid: row.server_uid,
      key: row.license_key,
      valid: row.valid,
      code: row.code,
      timestamp: row.created_at,
      origin: row.origin,
    },
  });
}

export function fromAccess(row: AccessLogRow): LogEntryDto {
  return entry({
    id: row.id,
    source: 'access',
    level: row.status >= 500 ? 'error' : row.status >= 400 ? 'warning' : 'info',
    message: `${row.method} ${row.path} ${row.status} (${row.duration_ms} ms)`,
    action: row.method,
    user_email: row.user_email,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    created_at: row.created_at,
    access: {
      method: row.method,
      route: row.route,
      path: row.path,
      status: row.status,
      duration_ms: row.duration_ms,
      bytes_out: row.bytes_out,
    },
  });
}

export function fromDownload(row: DownloadLogEntity): LogEntryDto {
  return entry({
    id: row.id,
    source: 'downloads',
    level: 'info',
    message: `Downloaded ${row.file_name}${row.version ? ` (v${row.version})` : ''}`,
    action: 'download',
    user_email: row.user_email,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    file_name: row.file_name,
    created_at: row.created_at,
    target_type: 'file',
    target_id: row.file_id === null ? null : String(row.file_id),
    download: { version: row.version, os_type: row.os_type, architecture: row.architecture, file_size: row.file_size, via: row.via },
  });
}
