import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useIntl } from 'react-intl';

interface NameValues {
  first_name: string;
  last_name: string;
}

/** A person's first and last name, both required, for a form that has them (registration, profile). */
export function NameFields<T extends NameValues>({ form }: { form: UseFormReturnType<T> }) {
  const intl = useIntl();
  const values = form as unknown as UseFormReturnType<NameValues>;
  return (
    <>
      <TextInput
        label={intl.formatMessage({ id: 'fields.firstName' })}
        autoComplete="given-name"
        required
        {...values.getInputProps('first_name')}
      />
      <TextInput
        label={intl.formatMessage({ id: 'fields.lastName' })}
        autoComplete="family-name"
        required
        {...values.getInputProps('last_name')}
      />
    </>
  );
}
