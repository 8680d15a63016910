import { Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconHome } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { paths } from '../lib/paths';
import classes from './layouts/centered.module.css';
import { MessageText, MessageTitle } from './Message';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className={classes.centered}>
      <Stack align="center" gap="md" ta="center" maw={460}>
        <Text fz={96} fw={900} c="violet.6" lh={1}>
          404
        </Text>
        <MessageTitle order={1} fz={28} message="notFound.title" />
        <MessageText c="dimmed" message="notFound.text" />
        <Group mt="sm">
          <Button component={Link} to={paths.home} leftSection={<IconHome size={16} />}>
            <FormattedMessage id="notFound.home" />
          </Button>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(-1)}>
            <FormattedMessage id="notFound.back" />
          </Button>
        </Group>
      </Stack>
    </main>
  );
}
