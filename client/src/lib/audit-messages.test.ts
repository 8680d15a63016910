import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import de from '../i18n/de.json';
import en from '../i18n/en.json';
import { describeAudit, describeLogEntry, levelLabel } from './audit-messages';

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

describe('describeLogEntry', () => {
  it('says the activation API’s entries from their action and code, downloads from their file', () => {
    const remote = {
      source: 'remote',
      level: 'warning',
      action: 'validate',
      message: 'validate EXPIRED: License has expired',
      remote_context: { code: 'EXPIRED', valid: false },
    };
    expect(describeLogEntry(english, remote)).toBe('validate EXPIRED: License has expired');
    expect(describeLogEntry(german, remote)).toBe('Prüfung EXPIRED: Die Lizenz ist abgelaufen');
    const first = {
      ...remote,
      action: 'activate',
      message: 'activate VALID: License activated on this server',
      remote_context: { code: 'VALID', valid: true },
    };
    expect(describeLogEntry(english, first)).toBe(first.message);
    expect(describeLogEntry(german, first)).toBe('Aktivierung VALID: Lizenz auf diesem Server aktiviert');
    const download = {
      source: 'downloads',
      level: 'info',
      action: 'download',
      message: 'Downloaded a.zip (v2.1.0)',
      file_name: 'a.zip',
      download: { version: '2.1.0' },
    };
    expect(describeLogEntry(english, download)).toBe(download.message);
    expect(describeLogEntry(german, download)).toBe('a.zip heruntergeladen (v2.1.0)');
  });

  it('says audit entries through describeAudit and leaves requests as they are', () => {
    const audit = { source: 'local', level: 'info', action: 'user.delete', message: 'Delete user: a@b.c', context: { subject: 'a@b.c' } };
    expect(describeLogEntry(german, audit)).toBe('Benutzer gelöscht: a@b.c');
    const access = { source: 'access', level: 'info', action: 'GET', message: 'GET /api/me 200 (3 ms)' };
    expect(describeLogEntry(german, access)).toBe(access.message);
  });

  it('names levels in the reader’s language', () => {
    expect([levelLabel(english, 'warning'), levelLabel(german, 'warning'), levelLabel(german, 'error')]).toEqual([
      'WARNING',
      'WARNUNG',
      'FEHLER',
    ]);
  });
});
