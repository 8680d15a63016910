import { Card, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';

/** An admin section whose screen is not part of this release: says so, shows nothing invented. */
export function SectionPendingPage({ section }: { section: MessageId }) {
  return (
    <Stack gap="md">
      <Title order={2}>
        <FormattedMessage id={section} />
      </Title>
      <Card withBorder radius="md" p="xl">
        <Stack align="center" gap="xs" ta="center">
          <IconTools size={36} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text fw={600}>
            <FormattedMessage id="admin.pending.title" />
          </Text>
          <Text fz="sm" c="dimmed">
            <FormattedMessage id="admin.pending.text" />
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
