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
