import type { MessageId } from '../../i18n/message-id';
import { isEmail } from '../../lib/email';
import { PASSWORD_MIN } from '../../lib/password-rules';

export interface RegistrationValues {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

export type RegistrationErrors = Partial<Record<keyof RegistrationValues, MessageId>>;

/**
 * The spec's rules in its order; the first rule that fails is reported (for every field it concerns):
 * required fields, then the e-mail format, then the password length, then the confirmation.
 */
export function validateRegistration(values: RegistrationValues): RegistrationErrors {
  const required = (['first_name', 'last_name', 'email', 'password'] as const).filter((field) => !values[field].trim());
  if (required.length) return Object.fromEntries(required.map((field) => [field, 'register.errors.required'])) as RegistrationErrors;
  if (!isEmail(values.email)) return { email: 'register.errors.email' };
  if (values.password.length < PASSWORD_MIN) return { password: 'register.errors.passwordLength' };
  if (values.password_confirmation !== values.password) return { password_confirmation: 'register.errors.mismatch' };
  return {};
}
