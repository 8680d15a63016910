import { ActionIcon, Menu } from '@mantine/core';
import { IconUserCircle, IconUserCog } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { Link } from 'react-router';

/** The signed-in user's menu in a shell's header: their profile and security page. */
export function UserMenu({ profilePath }: { profilePath: string }) {
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
      </Menu.Dropdown>
    </Menu>
  );
}
