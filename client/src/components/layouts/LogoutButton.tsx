import { ActionIcon, Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useIntl } from 'react-intl';

/** Logout: a labelled button, an icon button on phones. */
export function LogoutButton({ onLogout }: { onLogout: () => void }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'common.logout' });
  return (
    <>
      <Button variant="light" size="xs" leftSection={<IconLogout size={14} />} onClick={onLogout} visibleFrom="xs">
        {label}
      </Button>
      <ActionIcon variant="light" size="lg" aria-label={label} onClick={onLogout} hiddenFrom="xs">
        <IconLogout size={16} />
      </ActionIcon>
    </>
  );
}
