import type { UseFormReturnType } from '@mantine/form';
import { useIntl } from 'react-intl';
import type { MessageId } from '../i18n/message-id';

/** A form field's props, its label from the catalogs among them: `<TextInput required {...field('email', 'fields.email')} />`. */
export function useField<T>(form: UseFormReturnType<T>) {
  const intl = useIntl();
  type Path = Parameters<typeof form.getInputProps>[0];
  return (path: Path, label: MessageId, options?: Parameters<typeof form.getInputProps>[1]) => ({
    label: intl.formatMessage({ id: label }),
    ...form.getInputProps(path, options),
  });
}
