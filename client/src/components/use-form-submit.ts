import type { UseFormReturnType } from '@mantine/form';
import { FormEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../i18n/message-id';
import { applyFieldErrors } from '../lib/field-errors';
import { localizeServerMessage } from '../lib/server-messages';

interface FormSubmitOptions<T> {
  /** Sends the values; a throw is a failed submit. */
  send: (values: T) => Promise<void>;
  /** The failed submit's message: an id with the error's reason as {message}, or how the error makes it. */
  failure: MessageId | ((error: Error) => string);
  /** Server field name → form field name, where they differ. */
  fields?: Record<string, string>;
}

/**
 * A form's submit (validation first), and what a failure leaves: the server's field errors under their fields, and
 * the message for the form's error banner. For the FormModal frame.
 */
export function useFormSubmit<T extends object>(form: UseFormReturnType<T>, { send, failure, fields }: FormSubmitOptions<T>) {
  const intl = useIntl();
  const [message, setMessage] = useState<string | null>(null);
  const localize = (text: string) => localizeServerMessage(intl, text);
  const submit = form.onSubmit(async (values) => {
    setMessage(null);
    try {
      await send(values);
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      applyFieldErrors(form, error, { fields, localize });
      setMessage(typeof failure === 'string' ? intl.formatMessage({ id: failure }, { message: localize(error.message) }) : failure(error));
    }
  });
  return {
    onSubmit: (event?: FormEvent<HTMLFormElement>) => submit(event),
    /** The last failure's message, or null. */
    failure: message,
    /** Shows a failure that is not the submit's own (a side action such as generating a key). */
    fail: setMessage,
    dismiss: () => setMessage(null),
  };
}

export type FormSubmit = ReturnType<typeof useFormSubmit>;
