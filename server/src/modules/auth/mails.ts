import type { MailMessage } from '../mail/mail.service';

/** Link mails (verification, password reset, e-mail change) one address or account may be sent per throttle window. */
export const LINK_MAILS_PER_WINDOW = 3;

/** A plain-text mail: a greeting of `name`, then `paragraphs`, a blank line between each. */
export function letter(to: string, subject: string, name: string, paragraphs: string[]): MailMessage {
  return { to, subject, text: [`Hello ${name},`, ...paragraphs].join('\n\n') };
}

/**
 * The notice that an account's password changed (`how`: where, and which devices were signed out). It names the
 * links the change voided: always those mailed before, and by name the new address a pending change would have
 * moved the account to (someone with the old password may have asked for it).
 */
export function passwordChangedMail(
  account: { email: string; first_name: string },
  how: string,
  voidedEmail: string | null,
  publicUrl: string,
): MailMessage {
  return letter(account.email, 'Your password was changed', account.first_name || account.email, [
    `The password of your StreamHub account was changed at ${new Date().toISOString()} ${how}.`,
    voidedEmail
      ? `The change of your e-mail address to ${voidedEmail} that was waiting for confirmation is cancelled, and every link mailed before (password reset, e-mail confirmation) no longer works.`
      : 'Every link mailed before (password reset, e-mail confirmation) no longer works.',
    `If this was not you, reset your password at once at ${publicUrl}/forgot-password and tell us.`,
  ]);
}

/** '1 hour', '3 hours', '45 minutes': how long a mailed link works, as the mail says it. */
export function forHowLong(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
