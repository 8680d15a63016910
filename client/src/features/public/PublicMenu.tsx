import { Button, Drawer, Stack } from '@mantine/core';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { LanguageSelect } from '../../components/LanguageSelect';
import { Logo } from '../../components/layouts/Logo';
import { paths } from '../../lib/paths';

/** The landing navigation on phones, in a drawer; loaded on the first tap, as only phones need it. */
export default function PublicMenu({ opened, onClose, links }: { opened: boolean; onClose: () => void; links: ReactNode }) {
  const intl = useIntl();
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="xs" title={<Logo />} hiddenFrom="md">
      <Stack gap="md" component="nav" aria-label={intl.formatMessage({ id: 'landing.nav.label' })}>
        {links}
        <LanguageSelect size="sm" />
        <Button component={Link} to={paths.login} variant="default" onClick={onClose}>
          <FormattedMessage id="landing.nav.login" />
        </Button>
        <Button component={Link} to={paths.register} onClick={onClose}>
          <FormattedMessage id="landing.nav.register" />
        </Button>
      </Stack>
    </Drawer>
  );
}
