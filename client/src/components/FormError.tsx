import type { UseFormReturnType } from '@mantine/form';
import { useIntl } from 'react-intl';
import { localizeServerMessage } from '../lib/server-messages';
import { ErrorAlert } from './ErrorAlert';

/** A failed submit in the server's words, unless the server named a field of the form (then it shows there). */
export function FormError<T>({ form, error }: { form: UseFormReturnType<T>; error: Error | null }) {
  const intl = useIntl();
  if (!error || Object.keys(form.errors).length) return null;
  return <ErrorAlert>{localizeServerMessage(intl, error.message)}</ErrorAlert>;
}
