import { Loader, Stack } from '@mantine/core';
import type { MessageId } from '../i18n/message-id';
import { MessageText } from './Message';

/** A spinner and what it waits for ('Checking authentication...'), announced politely. */
export function WaitingPanel({ message }: { message: MessageId }) {
  return (
    <Stack align="center" gap="sm" role="status">
      <Loader />
      <MessageText c="dimmed" message={message} />
    </Stack>
  );
}
