import { AppShell, Badge, Box, Burger, Group, NavLink, ScrollArea, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconDashboard,
  IconFiles,
  IconKey,
  IconListDetails,
  IconPackage,
  IconSettings,
  IconShieldLock,
  IconUsers,
} from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink as RouterNavLink, useNavigate } from 'react-router';
import { useGetPaymentProvider } from '../../api/generated/endpoints/orders/orders';
import { LanguageSelect } from '../LanguageSelect';
import { LogoutButton } from './LogoutButton';
import { UserMenu } from './UserMenu';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';
import { MessageText, MessageTitle } from '../Message';

const SECTIONS = [
  { to: paths.admin.dashboard, label: 'admin.nav.dashboard', icon: IconDashboard },
  { to: paths.admin.users, label: 'admin.nav.users', icon: IconUsers },
  { to: paths.admin.versions, label: 'admin.nav.versions', icon: IconPackage },
  { to: paths.admin.licenses, label: 'admin.nav.licenses', icon: IconKey },
  { to: paths.admin.files, label: 'admin.nav.files', icon: IconFiles },
  { to: paths.admin.logs, label: 'admin.nav.logs', icon: IconListDetails },
  { to: paths.admin.settings, label: 'admin.nav.settings', icon: IconSettings },
] as const;

/** Admin Panel: sidebar with the six sections of the specification and Settings (collapsing on small screens), welcome line, Logout to /secret-admin. */
export function AdminShell({ children }: { children: ReactNode }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  const signOut = async () => {
    // Ends at the admin sign-in even when the logout request fails.
    await logout();
    navigate(paths.adminLogin, { replace: true });
  };
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={intl.formatMessage({ id: 'admin.nav.toggle' })}
            />
            <Box visibleFrom="xs" display="flex">
              <IconShieldLock size={24} color="var(--mantine-color-violet-6)" aria-hidden />
            </Box>
            <MessageTitle order={1} fz={{ base: 'md', sm: 'lg' }} style={{ whiteSpace: 'nowrap' }} message="admin.title" />
            <Box visibleFrom="sm" display="flex">
              <SandboxPaymentsBadge testId="sandbox-payments" />
            </Box>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <MessageText
              size="sm"
              visibleFrom="sm"
              data-testid="welcome"
              message="admin.welcome"
              values={{ name: user?.first_name || 'Admin' }}
            />
            <UserMenu profilePath={paths.admin.profile} homePath={paths.admin.dashboard} onLogout={signOut} />
            <LanguageSelect />
            <LogoutButton onLogout={signOut} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={intl.formatMessage({ id: 'admin.nav.label' })}>
        <ScrollArea>
          {SECTIONS.map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              component={RouterNavLink}
              to={to}
              label={intl.formatMessage({ id: label })}
              leftSection={<Icon size={18} stroke={1.6} />}
              onClick={close}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        {/* Phones have no room in the header: the badge opens the page instead. */}
        <Box hiddenFrom="sm" mb="sm">
          <SandboxPaymentsBadge testId="sandbox-payments-compact" />
        </Box>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

/** Says, on every admin screen, that orders are not really charged (PAYMENT_PROVIDER=sandbox). */
function SandboxPaymentsBadge({ testId }: { testId: string }) {
  const intl = useIntl();
  const provider = useGetPaymentProvider({ query: { staleTime: Infinity } });
  if (!provider.data?.data.sandbox) return null;
  return (
    <Tooltip
      label={intl.formatMessage({ id: 'admin.sandboxPayments.hint' })}
      multiline
      w={260}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Badge color="yellow.4" variant="filled" autoContrast size="sm" tabIndex={0} data-testid={testId} style={{ flexShrink: 0 }}>
        <FormattedMessage id="admin.sandboxPayments" />
      </Badge>
    </Tooltip>
  );
}
