import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { NETWORK_ERROR } from '../api/http-client';

// The server answers in the spec's English wording; these are shown in the chosen language.
const KNOWN: Record<string, MessageId> = {
  [NETWORK_ERROR]: 'errors.network',
  'Invalid email or password. Please try again.': 'errors.login.invalid',
  'Account not verified. Please check your email.': 'errors.login.unverified',
  'Admin account not verified. Please check your email.': 'errors.adminLogin.unverified',
  'Invalid admin credentials or insufficient permissions': 'errors.adminLogin.notAdmin',
  'Email and password are required': 'errors.login.required',
  'Invalid login response: missing user data or token': 'errors.login.invalidResponse',
  'Invalid response: missing token or admin data': 'errors.adminLogin.invalidResponse',
  'Authentication expired. Please log in again.': 'errors.sessionExpired',
  'Failed to initialize authentication': 'errors.authInit',
  'This verification link is invalid or has expired.': 'verify.invalid',
  'This password is too common. Please choose one that is harder to guess.': 'errors.password.common',
  'This password reset link is invalid or has expired.': 'reset.invalid',
  'Passwords do not match': 'register.errors.mismatch',
  'Password must be at least 8 characters': 'register.errors.passwordLength',
  'Please enter a valid email address': 'register.errors.email',
  'Invalid authentication code.': 'errors.mfa.wrongCode',
  'Your sign-in has expired. Please log in again.': 'errors.mfa.expired',
  'Enter the 6-digit code from your authenticator app.': 'mfa.verify.text',
  'Enter one of your recovery codes.': 'errors.mfa.recoveryFormat',
  'Two-factor sign-in is already on. Turn it off first to set up another authenticator.': 'errors.mfa.alreadyOn',
  'Current password is incorrect.': 'errors.password.wrong',
  'Current password is required': 'errors.password.currentRequired',
  'This is already your e-mail address.': 'errors.email.same',
  'This email is already registered.': 'errors.email.taken',
  'This confirmation link is invalid or has expired.': 'confirmEmail.invalid',
  'This field is required': 'register.errors.required',
  'This account signs in with two-factor authentication at the admin sign-in.': 'errors.login.useAdminDoor',
};

/** The message in the user's language when the server's wording is one we know, else as the server said it. */
export function localizeServerMessage(intl: IntlShape, message: string): string {
  const throttled = message.match(/^Too many .* in (\d+) minutes?\.$/);
  if (throttled) return intl.formatMessage({ id: 'errors.tooMany' }, { minutes: Number(throttled[1]) });
  const id = KNOWN[message];
  return id ? intl.formatMessage({ id }) : message;
}
