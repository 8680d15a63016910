import { PasswordInput, PasswordInputProps } from '@mantine/core';
import { useIntl } from 'react-intl';

/** The password someone already has (to sign in, or to confirm a change): the current password unless labelled otherwise. */
export function CurrentPasswordInput(props: PasswordInputProps) {
  const intl = useIntl();
  return <PasswordInput label={intl.formatMessage({ id: 'fields.currentPassword' })} autoComplete="current-password" required {...props} />;
}
