import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useIntl } from 'react-intl';

/** Logout: a labelled button; on phones it lives in the user menu instead (see UserMenu), where the header has room. */
export function LogoutButton({ onLogout }: { onLogout: () => void }) {
  const intl = useIntl();
  return (
    <Button variant="light" size="xs" leftSection={<IconLogout size={14} />} onClick={onLogout} visibleFrom="xs">
      {intl.formatMessage({ id: 'common.logout' })}
    </Button>
  );
}
