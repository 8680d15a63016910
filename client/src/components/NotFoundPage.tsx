import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconHome } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { paths } from '../lib/paths';
import classes from './layouts/centered.module.css';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className={classes.centered}>
      <Stack align="center" gap="md" ta="center" maw={460}>
        <Text fz={96} fw={900} c="violet.6" lh={1}>
          404
        </Text>
        <Title order={1} fz={28}>
          <FormattedMessage id="notFound.title" />
        </Title>
        <Text c="dimmed">
          <FormattedMessage id="notFound.text" />
        </Text>
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
