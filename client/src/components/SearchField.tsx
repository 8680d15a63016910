import { TextInput, TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../i18n/message-id';

interface SearchFieldProps extends Omit<TextInputProps, 'label' | 'placeholder'> {
  label: MessageId;
  placeholder: MessageId;
}

/** The search box of the admin lists: grows to fill the filter row. */
export function SearchField({ label, placeholder, ...props }: SearchFieldProps) {
  const intl = useIntl();
  return (
    <TextInput
      style={{ flex: '1 1 240px' }}
      leftSection={<IconSearch size={16} />}
      label={intl.formatMessage({ id: label })}
      placeholder={intl.formatMessage({ id: placeholder })}
      {...props}
    />
  );
}
