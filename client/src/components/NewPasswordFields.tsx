import { PasswordInput, SimpleGrid } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useIntl } from 'react-intl';
import type { NewPasswordValues } from '../lib/password-rules';
import { useField } from './use-field';

interface NewPasswordFieldsProps<T extends NewPasswordValues> {
  /** A form with `password` and `password_confirmation`; their errors, the server's included, show under them. */
  form: UseFormReturnType<T>;
  /** 'first' for an account being made (Password, Confirm Password); 'new' for a change (New Password, Confirm New Password). */
  kind: 'first' | 'new';
  /** Side by side on wide screens, rather than one under the other. */
  inline?: boolean;
}

/** A password someone chooses, with the rule under it, and its confirmation. */
export function NewPasswordFields<T extends NewPasswordValues>({ form, kind, inline = false }: NewPasswordFieldsProps<T>) {
  const intl = useIntl();
  const values = form as unknown as UseFormReturnType<NewPasswordValues>;
  const field = useField(values);
  const fields = (
    <>
      <PasswordInput
        description={intl.formatMessage({ id: 'register.passwordHint' })}
        autoComplete="new-password"
        required
        {...field('password', kind === 'first' ? 'fields.password' : 'fields.newPassword')}
      />
      <PasswordInput
        autoComplete="new-password"
        required
        {...field('password_confirmation', kind === 'first' ? 'fields.confirmPassword' : 'fields.confirmNewPassword')}
      />
    </>
  );
  if (!inline) return fields;
  // Bottoms aligned: only the first field has a hint under its label.
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" style={{ alignItems: 'end' }}>
      {fields}
    </SimpleGrid>
  );
}
