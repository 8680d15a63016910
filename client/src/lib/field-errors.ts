import type { UseFormReturnType } from '@mantine/form';
import type { IntlShape } from 'react-intl';
import { ApiError } from '../api/http-client';
import type { MessageId } from '../i18n/message-id';

interface FieldErrorOptions {
  /** Server field name → form field name, where they differ (`{ product_name: 'product' }`). */
  fields?: Record<string, string>;
  /** Turns a server message into the user's language. */
  localize?: (message: string) => string;
}

/**
 * Puts the server's field errors (`errors: { email: ['…'] }` on an ApiError) under their form fields; errors for
 * fields the form does not have are left to the form's general error. Returns whether any field got one.
 */
export function applyFieldErrors<T extends object>(
  form: UseFormReturnType<T>,
  error: unknown,
  { fields = {}, localize = (message) => message }: FieldErrorOptions = {},
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const target = fields[field] ?? field;
    if (!(target in form.getValues())) continue;
    form.setFieldError(target, messages.map(localize).join(', '));
    applied = true;
  }
  return applied;
}

/** A form's own validation, found as message ids, in the user's words (for a @mantine/form `validate` function). */
export function formatFieldErrors(intl: IntlShape, errors: Partial<Record<string, MessageId>>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, id]) => [field, intl.formatMessage({ id: id! })]));
}
