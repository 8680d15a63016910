import { Button, Group, Stack, ThemeIcon } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';
import classes from '../../components/layouts/centered.module.css';
import { MessageText, MessageTitle } from '../../components/Message';

/** Shown to a signed-in client who opened an admin page; the page itself is not shown. */
export default function UnauthorizedPage() {
  const { status } = useAuth();
  return (
    <main className={classes.centered}>
      <Stack align="center" gap="md" ta="center" maw={460}>
        <ThemeIcon size={72} radius="xl" color="red" variant="light">
          <IconLock size={40} />
        </ThemeIcon>
        <MessageTitle order={1} fz={28} message="unauthorized.title" />
        <MessageText c="dimmed" message="unauthorized.text" />
        <Group>
          <Button component={Link} to={status === 'signedIn' ? paths.dashboard : paths.login}>
            <FormattedMessage id={status === 'signedIn' ? 'unauthorized.dashboard' : 'unauthorized.login'} />
          </Button>
          <Button component={Link} to={paths.home} variant="default">
            <FormattedMessage id="notFound.home" />
          </Button>
        </Group>
      </Stack>
    </main>
  );
}
