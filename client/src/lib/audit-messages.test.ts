import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import de from '../i18n/de.json';
import en from '../i18n/en.json';
import { describeAudit } from './audit-messages';

const english = createIntl({ locale: 'en', messages: en });
const german = createIntl({ locale: 'de', messages: de });

describe('describeAudit', () => {
  it('composes an action with its subject in the reader’s language', () => {
    const entry = { action: 'license.revoke', description: 'Revoke license: SH-ABC', subject: 'SH-ABC' };
    expect(describeAudit(english, entry)).toBe('Revoke license: SH-ABC');
    expect(describeAudit(german, entry)).toBe('Lizenz widerrufen: SH-ABC');
    expect(describeAudit(german, { action: 'logs.export', description: 'Export logs' })).toBe('Protokolle exportiert');
  });

  it('says a refusal with its status and the server’s reason, translated where the portal knows it', () => {
    const entry = {
      action: 'auth.admin_login',
      description: 'Admin sign-in refused (401) for a@b.c: Invalid email or password. Please try again.',
      subject: 'a@b.c',
      status: 401,
      reason: 'Invalid email or password. Please try again.',
    };
    expect(describeAudit(english, entry)).toBe(entry.description);
    expect(describeAudit(german, entry)).toBe(`Admin-Anmeldung abgelehnt (401) für a@b.c: ${de['errors.login.invalid']}`);
    expect(describeAudit(german, { ...entry, subject: null })).toMatch(/^Admin-Anmeldung abgelehnt \(401\): /);
  });

  it('shows the stored message for an action the catalog does not name', () => {
    expect(describeAudit(german, { action: 'server.error', description: 'GET /api/x failed: boom' })).toBe('GET /api/x failed: boom');
  });
});
