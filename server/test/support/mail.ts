import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './test-app';

/** Every mail written to DATA_DIR/mail.log for this address, oldest first. */
export function mailsTo(t: TestApp, email: string): string[] {
  const file = join(t.config.dataDir, 'mail.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('----\n')
    .filter((mail) => mail.includes(`To: ${email}\n`));
}

/** Polls until `check` gives a value (mails and audit rows are written after the answer), or fails naming `what`. */
export async function eventually<T>(
  what: string,
  check: () => T | null | undefined | Promise<T | null | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The token of the `path?token=` link in a mail. */
export function linkToken(mail: string, path: string): string | null {
  const match = mail.match(new RegExp(`/${path}\\?token=([\\w%-]+)`));
  return match ? decodeURIComponent(match[1]) : null;
}

/** The newest mail to this address whose subject is `subject`, once it has been written. */
export function mailWithSubject(t: TestApp, email: string, subject: string, after = 0): Promise<string> {
  return eventually(`a mail "${subject}" to ${email}`, () =>
    mailsTo(t, email)
      .slice(after)
      .reverse()
      .find((mail) => mail.includes(`Subject: ${subject}\n`)),
  );
}

/** Audit trail rows of one action, newest first, once at least `count` are stored (they are written in batches). */
export function auditRows(t: TestApp, action: string, count = 1): Promise<Array<Record<string, unknown>>> {
  return eventually(`${count} audit rows of ${action}`, async () => {
    const rows: Array<Record<string, unknown>> = await t.dataSource.query(
      'SELECT level, action, message, actor_email, actor_id, context FROM audit_logs WHERE action = ? ORDER BY id DESC',
      [action],
    );
    return rows.length >= count ? rows : null;
  });
}
