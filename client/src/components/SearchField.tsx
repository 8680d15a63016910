import { TextInput, TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** The search box of the admin lists: grows to fill the filter row. */
export function SearchField(props: TextInputProps) {
  return <TextInput style={{ flex: '1 1 240px' }} leftSection={<IconSearch size={16} />} {...props} />;
}
