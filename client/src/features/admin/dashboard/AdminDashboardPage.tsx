import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconFiles, IconKey, IconListDetails, IconPackage, IconUsers } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { useAuth } from '../../../lib/auth/auth-context';
import { paths } from '../../../lib/paths';
import type { MessageId } from '../../../i18n/message-id';

const QUICK_ACTIONS: Array<{ to: string; label: MessageId; text: MessageId; icon: typeof IconUsers; color: string }> = [
  { to: paths.admin.users, label: 'admin.quick.users', text: 'admin.quick.usersText', icon: IconUsers, color: 'violet' },
  { to: paths.admin.versions, label: 'admin.quick.versions', text: 'admin.quick.versionsText', icon: IconPackage, color: 'blue' },
  { to: paths.admin.licenses, label: 'admin.quick.licenses', text: 'admin.quick.licensesText', icon: IconKey, color: 'teal' },
  { to: paths.admin.files, label: 'admin.quick.files', text: 'admin.quick.filesText', icon: IconFiles, color: 'orange' },
  { to: paths.admin.logs, label: 'admin.quick.logs', text: 'admin.quick.logsText', icon: IconListDetails, color: 'gray' },
];

export function AdminDashboardPage() {
  const intl = useIntl();
  const { user } = useAuth();
  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>
          <FormattedMessage id="admin.nav.dashboard" />
        </Title>
        <Text c="dimmed" fz="sm">
          <FormattedMessage id="admin.dashboard.subtitle" values={{ name: user?.first_name || 'Admin' }} />
        </Text>
      </div>
      <Title order={3} fz="md">
        <FormattedMessage id="admin.quick.title" />
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {QUICK_ACTIONS.map(({ to, label, text, icon: Icon, color }) => (
          <UnstyledButton key={to} component={Link} to={to} aria-label={intl.formatMessage({ id: label })}>
            <Card withBorder radius="md" p="lg" h="100%">
              <Group wrap="nowrap" align="flex-start">
                <ThemeIcon size={42} radius="md" variant="light" color={color}>
                  <Icon size={22} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>
                    <FormattedMessage id={label} />
                  </Text>
                  <Text fz="sm" c="dimmed">
                    <FormattedMessage id={text} />
                  </Text>
                </div>
              </Group>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
