import { AppShell, Box, Group, Text, Title } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNavigate } from 'react-router';
import { LanguageSelect } from '../LanguageSelect';
import { LogoutButton } from './LogoutButton';
import { UserMenu } from './UserMenu';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';

/** Client Portal: header with the welcome line, language and Logout (which ends at /login). */
export function PortalShell({ children }: { children: ReactNode }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const name = user?.first_name || user?.email;
  const signOut = async () => {
    await logout();
    navigate(paths.login, { replace: true });
  };
  return (
    <AppShell header={{ height: 64 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Box visibleFrom="xs" display="flex">
              <IconBroadcast size={26} color="var(--mantine-color-violet-6)" aria-hidden />
            </Box>
            <Title order={1} fz={{ base: 'md', sm: 'lg' }} style={{ whiteSpace: 'nowrap' }}>
              <FormattedMessage id="portal.title" />
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Box visibleFrom="sm" ta="right">
              <Text size="sm" fw={500} data-testid="welcome">
                <FormattedMessage id="portal.welcome" values={{ name }} />
              </Text>
              <Text size="xs" c="dimmed">
                {user?.email}
              </Text>
            </Box>
            <UserMenu profilePath={paths.profile} homePath={paths.dashboard} onLogout={signOut} />
            <LanguageSelect />
            <LogoutButton onLogout={signOut} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="var(--mantine-color-gray-0)">{children}</AppShell.Main>
    </AppShell>
  );
}
