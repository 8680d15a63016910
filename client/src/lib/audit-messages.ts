import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { localizeServerMessage } from './server-messages';

/** An audit entry as the API gives it: the stored English message, and the fields it was made of. */
export interface AuditFields {
  action: string;
  description: string;
  subject?: string | null;
  status?: number | null;
  reason?: string | null;
}

/**
 * The entry in the reader's language, composed from its action and fields as the server composed the stored
 * message ("Revoke license: SH-…", "Admin sign-in refused (401) for a@b.c: …"); an action the catalog does not name
 * (a server error, an entry older than its fields) shows the stored message.
 */
export function describeAudit(intl: IntlShape, entry: AuditFields): string {
  const id = `audit.action.${entry.action}` as MessageId;
  if (!intl.messages[id]) return entry.description;
  const what = intl.formatMessage({ id });
  if (entry.status) {
    const reason = entry.reason ? localizeServerMessage(intl, entry.reason) : '';
    return intl.formatMessage({ id: 'audit.refused' }, { what, status: entry.status, subject: entry.subject ?? 'none', reason });
  }
  return entry.subject ? intl.formatMessage({ id: 'audit.done' }, { what, subject: entry.subject }) : what;
}

/** What a System Logs row needs to be said in the reader's language. */
export interface LogFields {
  source: string;
  level: string;
  action: string | null;
  message: string;
  context?: { [key: string]: unknown } | null;
  remote_context?: { code: string; valid: boolean } | null;
  download?: { version?: string | null } | null;
  file_name?: string | null;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * A System Logs entry in the reader's language: the audit trail through describeAudit, the activation API's
 * entries from their action and code, downloads from the file; requests (method, path, status) read the same in
 * every language. Anything the catalog cannot say shows the stored message.
 */
export function describeLogEntry(intl: IntlShape, entry: LogFields): string {
  if (entry.source === 'local' && entry.action) {
    const context = entry.context ?? {};
    const status = typeof context.status === 'number' ? context.status : null;
    return describeAudit(intl, {
      action: entry.action,
      description: entry.message,
      subject: text(context.subject),
      status,
      reason: text(context.reason),
    });
  }
  const code = entry.remote_context?.code;
  const action = `log.remote.${entry.action}` as MessageId;
  if (entry.source === 'remote' && code && intl.messages[action]) {
    // The portal's own message for a first activation differs from the code's (see LicenseServerService.signed).
    const own = entry.message.endsWith(': License activated on this server') ? 'ACTIVATED' : code;
    const codeText = `log.code.${own}` as MessageId;
    if (intl.messages[codeText]) {
      return intl.formatMessage(
        { id: 'log.remote.entry' },
        { action: intl.formatMessage({ id: action }), code, text: intl.formatMessage({ id: codeText }) },
      );
    }
  }
  if (entry.source === 'downloads' && entry.file_name) {
    return intl.formatMessage({ id: 'log.downloaded' }, { file: entry.file_name, version: entry.download?.version || 'none' });
  }
  return entry.message;
}

/** A level as its badge says it (ERROR, WARNUNG …); an unknown level as it is. */
export function levelLabel(intl: IntlShape, level: string | null | undefined): string {
  const id = `admin.logs.level.${level || 'info'}` as MessageId;
  return intl.messages[id] ? intl.formatMessage({ id }) : String(level).toUpperCase();
}
