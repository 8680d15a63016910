import { Loader, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../i18n/message-id';

/** A spinner and what it waits for ('Checking authentication...'), announced politely. */
export function WaitingPanel({ message }: { message: MessageId }) {
  return (
    <Stack align="center" gap="sm" role="status">
      <Loader />
      <Text c="dimmed">
        <FormattedMessage id={message} />
      </Text>
    </Stack>
  );
}
