import { TextInput, TextInputProps } from '@mantine/core';
import { useIntl } from 'react-intl';

/** The e-mail address someone signs in, registers or is reached with. */
export function EmailInput(props: TextInputProps) {
  const intl = useIntl();
  return <TextInput label={intl.formatMessage({ id: 'fields.email' })} type="email" autoComplete="email" required {...props} />;
}
