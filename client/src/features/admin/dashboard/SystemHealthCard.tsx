import { Badge, Box, Card, Group, List, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SystemHealthDto } from '../../../api/generated/model';
import { formatAdminBytes } from '../../../i18n/format';
import type { MessageId } from '../../../i18n/message-id';
import { healthColor, uptimeParts } from './dashboard-display';
import { LicenseServerHealth } from './LicenseServerHealth';
import { MessageText } from '../../../components/Message';

/** Shades dark or light enough for the badge's text to stay readable (axe contrast). */
const BADGE_SHADES: Record<string, string> = { green: '#1e6b2f', yellow: 'yellow.4', red: 'red.9' };

/** One labelled figure; 'Unknown' when the server did not say. */
function Figure({ label, value, testId }: { label: MessageId; value: ReactNode | null | undefined; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <MessageText fz="sm" c="dimmed" message={label} />
      <Text fz="sm" fw={600} ta="right" data-testid={testId}>
        {value ?? <FormattedMessage id="admin.dashboard.health.unknown" />}
      </Text>
    </Group>
  );
}

/** Overall status with its reasons, uptime, database, storage and disk, the license-server sync, and the scheduled jobs' last runs. */
export function SystemHealthCard({ health, loading }: { health: SystemHealthDto | undefined; loading: boolean }) {
  const intl = useIntl();
  const bytes = (value: number | null | undefined) => (value == null ? null : formatAdminBytes(value, intl.locale));
  const uptime = health && intl.formatMessage({ id: 'admin.dashboard.health.uptimeValue' }, uptimeParts(health.server_uptime));

  return (
    <Card withBorder radius="md" p="md" h="100%">
      <Group justify="space-between" mb="sm">
        <Title order={3} fz="md">
          <FormattedMessage id="admin.dashboard.health.title" />
        </Title>
        {health && (
          <Badge color={BADGE_SHADES[healthColor(health.status)]} variant="filled" autoContrast data-testid="health-status">
            <FormattedMessage id={`admin.dashboard.health.status.${health.status}`} />
          </Badge>
        )}
      </Group>
      {loading && !health && <Skeleton h={120} />}
      {health && (
        <Stack gap={6}>
          {health.reasons.length > 0 && (
            <List size="sm" c={health.status === 'error' ? 'red.9' : undefined} data-testid="health-reasons" mb={4}>
              {health.reasons.map((reason) => (
                <List.Item key={reason}>{reason}</List.Item>
              ))}
            </List>
          )}
          <Figure label="admin.dashboard.health.uptime" value={uptime} testId="health-uptime" />
          <Figure label="admin.dashboard.health.databaseSize" value={bytes(health.database.size_bytes)} testId="health-database-size" />
          <Figure label="admin.dashboard.health.storageUsed" value={bytes(health.storage.used_bytes)} testId="health-storage-used" />
          <Figure label="admin.dashboard.health.freeDisk" value={bytes(health.storage.free_bytes)} testId="health-free-disk" />
          <Figure
            label="admin.dashboard.health.database"
            value={`${health.database.engine}${health.database.version ? ` ${health.database.version}` : ''}${
              health.database.round_trip_ms == null
                ? ''
                : ` · ${intl.formatNumber(health.database.round_trip_ms, { maximumFractionDigits: 1 })} ms`
            }`}
            testId="health-database"
          />
          <LicenseServerHealth sync={health.license_server} />
          {health.jobs.length === 0 && (
            <MessageText fz="xs" c="dimmed" data-testid="health-jobs-none" message="admin.dashboard.health.noJobs" />
          )}
          {health.jobs.length > 0 && (
            // No horizontal scrolling (a scroll region without focusable content fails keyboard access): long job names wrap.
            <Box mt="xs">
              <Table fz="xs" verticalSpacing={4} data-testid="health-jobs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <FormattedMessage id="admin.dashboard.health.job" />
                    </Table.Th>
                    <Table.Th>
                      <FormattedMessage id="admin.dashboard.health.lastRun" />
                    </Table.Th>
                    <Table.Th>
                      <FormattedMessage id="admin.dashboard.health.outcome" />
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {health.jobs.map((job) => (
                    <Table.Tr key={job.name}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{job.name}</Table.Td>
                      <Table.Td>{job.last_finished_at ? intl.formatTime(job.last_finished_at, { timeStyle: 'short' }) : '—'}</Table.Td>
                      <Table.Td title={job.last_error ?? undefined}>
                        {job.last_outcome === 'failed' ? (
                          <MessageText span fz="xs" c="red.8" fw={600} message="admin.dashboard.health.failed" />
                        ) : job.last_outcome ? (
                          <FormattedMessage id="admin.dashboard.health.ok" />
                        ) : (
                          '—'
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
          )}
        </Stack>
      )}
    </Card>
  );
}
