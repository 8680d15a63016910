import { Anchor, Box, Burger, Button, Container, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { LanguageSelect } from '../../components/LanguageSelect';
import { Logo } from '../../components/layouts/Logo';
import classes from './public.module.css';

const PublicMenu = lazy(() => import('./PublicMenu'));

const ANCHORS = [
  ['features', 'landing.nav.features'],
  ['documentation', 'landing.nav.documentation'],
  ['support', 'landing.nav.support'],
  ['download', 'landing.nav.download'],
  ['pricing', 'landing.nav.pricing'],
] as const;

/** Landing header: on-page anchors, language, login and register; anchors fold into a drawer on phones. */
export function PublicHeader() {
  const intl = useIntl();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Stays mounted after the first tap so the drawer can animate closed.
  const [menuLoaded, setMenuLoaded] = useState(false);
  const links = ANCHORS.map(([id, label]) => (
    <Anchor key={id} href={`#${id}`} c="dark.6" fw={500} size="sm" onClick={close}>
      <FormattedMessage id={label} />
    </Anchor>
  ));
  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={paths.home} underline="never" aria-label="StreamHub">
            <Logo />
          </Anchor>
          <Group gap="lg" visibleFrom="md" component="nav" aria-label={intl.formatMessage({ id: 'landing.nav.label' })}>
            {links}
          </Group>
          <Group gap="xs" wrap="nowrap" visibleFrom="sm">
            <LanguageSelect />
            <Button component={Link} to={paths.login} variant="subtle" size="sm">
              <FormattedMessage id="landing.nav.login" />
            </Button>
            <Button component={Link} to={paths.register} size="sm">
              <FormattedMessage id="landing.nav.register" />
            </Button>
          </Group>
          <Burger
            opened={opened}
            onClick={() => {
              setMenuLoaded(true);
              toggle();
            }}
            hiddenFrom="md"
            aria-label={intl.formatMessage({ id: 'landing.nav.menu' })}
          />
        </Group>
      </Container>
      {menuLoaded && (
        <Suspense fallback={null}>
          <PublicMenu opened={opened} onClose={close} links={links} />
        </Suspense>
      )}
    </Box>
  );
}
