import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useField } from './use-field';

interface NameValues {
  first_name: string;
  last_name: string;
}

/** A person's first and last name, both required, for a form that has them (registration, profile). */
export function NameFields<T extends NameValues>({ form }: { form: UseFormReturnType<T> }) {
  const values = form as unknown as UseFormReturnType<NameValues>;
  const field = useField(values);
  return (
    <>
      <TextInput autoComplete="given-name" required {...field('first_name', 'fields.firstName')} />
      <TextInput autoComplete="family-name" required {...field('last_name', 'fields.lastName')} />
    </>
  );
}
