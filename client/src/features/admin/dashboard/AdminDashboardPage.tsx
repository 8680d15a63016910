import { Button, Card, Grid, Group, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconFiles, IconKey, IconListDetails, IconPackage, IconRefresh, IconUsers } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import {
  useGetDashboard,
  useGetDownloadStats,
  useGetSystemHealth,
  useListActivity,
} from '../../../api/generated/endpoints/dashboard/dashboard';
import type { ApiError } from '../../../api/http-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { paths } from '../../../lib/paths';
import { ErrorAlert } from '../../../components/ErrorAlert';
import type { MessageId } from '../../../i18n/message-id';
import { DashboardCharts } from './DashboardCharts';
import { RECENT_ACTIVITY_LIMIT, REFRESH_MS } from './dashboard-display';
import { RecentActivity } from './RecentActivity';
import { StatCards } from './StatCards';
import { SystemHealthCard } from './SystemHealthCard';
import { MessageText } from '../../../components/Message';

const QUICK_ACTIONS: Array<{ to: string; label: MessageId; text: MessageId; icon: typeof IconUsers; color: string }> = [
  { to: paths.admin.users, label: 'admin.quick.users', text: 'admin.quick.usersText', icon: IconUsers, color: 'violet' },
  { to: paths.admin.versions, label: 'admin.quick.versions', text: 'admin.quick.versionsText', icon: IconPackage, color: 'blue' },
  { to: paths.admin.licenses, label: 'admin.quick.licenses', text: 'admin.quick.licensesText', icon: IconKey, color: 'teal' },
  { to: paths.admin.files, label: 'admin.quick.files', text: 'admin.quick.filesText', icon: IconFiles, color: 'orange' },
  { to: paths.admin.logs, label: 'admin.quick.logs', text: 'admin.quick.logsText', icon: IconListDetails, color: 'gray' },
];

const polled = { query: { refetchInterval: REFRESH_MS } };

/** What went wrong, in the spec's words: authentication, all calls unreachable, or only part of the data. */
function issueMessage(errors: ApiError[], total: number): MessageId {
  if (errors.some((error) => error.status === 401)) return 'admin.dashboard.errors.authExpired';
  if (errors.length === total && errors.every((error) => error.status === 0)) return 'admin.dashboard.errors.connection';
  return 'admin.dashboard.errors.partial';
}

/** Statistics, Quick Actions, Recent Activity, System Health and charts; every figure from the server, refreshed every 30 s. */
export default function AdminDashboardPage() {
  const intl = useIntl();
  const { user } = useAuth();
  const dashboard = useGetDashboard(polled);
  const activity = useListActivity({ limit: RECENT_ACTIVITY_LIMIT }, polled);
  const health = useGetSystemHealth(polled);
  const downloads = useGetDownloadStats(undefined, polled);
  const queries = [dashboard, activity, health, downloads];

  const errors = queries.flatMap((query) => (query.error ? [query.error] : []));
  const fetching = queries.some((query) => query.isFetching);
  const updatedAt = Math.max(...queries.map((query) => query.dataUpdatedAt));
  const refresh = () => queries.forEach((query) => void query.refetch());
  const issue = errors.length > 0 ? issueMessage(errors, queries.length) : null;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <FormattedMessage id="admin.nav.dashboard" />
          </Title>
          <Text c="dimmed" fz="sm">
            <FormattedMessage id="admin.dashboard.subtitle" values={{ name: user?.first_name || 'Admin' }} />
          </Text>
        </div>
        <Group gap="sm">
          {updatedAt > 0 && (
            <Text fz="xs" c="dimmed" data-testid="dashboard-updated">
              <FormattedMessage id="admin.dashboard.lastUpdated" values={{ time: intl.formatTime(updatedAt, { timeStyle: 'medium' }) }} />
            </Text>
          )}
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={fetching}>
            <FormattedMessage id="common.refresh" />
          </Button>
        </Group>
      </Group>

      {issue && (
        <ErrorAlert
          title={<FormattedMessage id="admin.dashboard.errors.title" />}
          onRetry={issue === 'admin.dashboard.errors.authExpired' ? undefined : refresh}
          actions={
            issue === 'admin.dashboard.errors.authExpired' && (
              <Button size="xs" variant="white" color="red" component={Link} to={paths.adminLogin}>
                <FormattedMessage id="admin.dashboard.errors.relogin" />
              </Button>
            )
          }
        >
          <FormattedMessage id={issue} />
          {issue === 'admin.dashboard.errors.partial' && (
            <Text fz="sm" mt={4}>
              {[...new Set(errors.map((error) => error.message))].join(' · ')}
            </Text>
          )}
        </ErrorAlert>
      )}

      <StatCards stats={dashboard.data?.data.statistics} />

      <Grid gap="sm">
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <Card withBorder radius="md" p="md" h="100%">
            <Title order={3} fz="md" mb="sm">
              <FormattedMessage id="admin.quick.title" />
            </Title>
            <Stack gap="xs">
              {QUICK_ACTIONS.map(({ to, label, text, icon: Icon, color }) => (
                <UnstyledButton key={to} component={Link} to={to} aria-label={intl.formatMessage({ id: label })}>
                  <Group wrap="nowrap" gap="sm">
                    <ThemeIcon size={34} radius="md" variant="light" color={color} aria-hidden>
                      <Icon size={18} />
                    </ThemeIcon>
                    <div>
                      <MessageText fz="sm" fw={600} message={label} />
                      <MessageText fz="xs" c="dimmed" message={text} />
                    </div>
                  </Group>
                </UnstyledButton>
              ))}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <RecentActivity entries={activity.data?.data} loading={activity.isLoading} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <SystemHealthCard health={health.data?.data} loading={health.isLoading} />
        </Grid.Col>
      </Grid>

      <DashboardCharts stats={downloads.data?.data} loading={downloads.isLoading} />
    </Stack>
  );
}
