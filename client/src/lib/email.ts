import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/message-id';

/** Something@something.something: the check the server makes too. */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

/** A form's rule for an e-mail address: `required` when it is missing, then the format message; null when fine. */
export function emailError(intl: IntlShape, value: string, required: MessageId = 'register.errors.required'): string | null {
  if (!value.trim()) return intl.formatMessage({ id: required });
  return isEmail(value) ? null : intl.formatMessage({ id: 'register.errors.email' });
}
