import { AppShell, Box, Group, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { ReactNode } from 'react';

import { useNavigate } from 'react-router';
import { LanguageSelect } from '../LanguageSelect';
import { LogoutButton } from './LogoutButton';
import { UserMenu } from './UserMenu';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';
import { MessageText, MessageTitle } from '../Message';

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
            <MessageTitle order={1} fz={{ base: 'md', sm: 'lg' }} style={{ whiteSpace: 'nowrap' }} message="portal.title" />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Box visibleFrom="sm" ta="right">
              <MessageText size="sm" fw={500} data-testid="welcome" message="portal.welcome" values={{ name }} />
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
