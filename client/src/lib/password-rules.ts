import type { MessageId } from '../i18n/message-id';

/** The server's rule for a password someone chooses for their own account (registration, reset, change). */
export const PASSWORD_MIN = 8;

export interface NewPasswordValues {
  password: string;
  password_confirmation: string;
}

/** Required, then long enough, then confirmed: the registration rules' order. (How common it is, only the server knows.) */
export function validateNewPassword(values: NewPasswordValues): Partial<Record<keyof NewPasswordValues, MessageId>> {
  if (!values.password) return { password: 'register.errors.required' };
  if (values.password.length < PASSWORD_MIN) return { password: 'register.errors.passwordLength' };
  if (values.password_confirmation !== values.password) return { password_confirmation: 'register.errors.mismatch' };
  return {};
}
