import { ActionIcon, Menu } from '@mantine/core';
import { IconLayoutDashboard, IconLogout, IconUserCircle, IconUserCog } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { Link } from 'react-router';

/**
 * The signed-in user's menu in a shell's header: their profile and security page and the way back; on phones also
 * Logout, which has no room of its own in the header there.
 */
export function UserMenu({ profilePath, homePath, onLogout }: { profilePath: string; homePath: string; onLogout: () => void }) {
  const intl = useIntl();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="light" size="lg" aria-label={intl.formatMessage({ id: 'account.menu' })} data-testid="user-menu">
          <IconUserCircle size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={profilePath} leftSection={<IconUserCog size={16} />}>
          {intl.formatMessage({ id: 'account.menu.profile' })}
        </Menu.Item>
        <Menu.Item component={Link} to={homePath} leftSection={<IconLayoutDashboard size={16} />}>
          {intl.formatMessage({ id: 'account.menu.dashboard' })}
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={onLogout} hiddenFrom="xs">
          {intl.formatMessage({ id: 'common.logout' })}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
