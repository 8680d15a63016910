import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { FullSyncDto, LicenseServerHealthDto } from '../../../api/generated/model';
import type { MessageId } from '../../../i18n/message-id';
import { LicenseServerActions } from './LicenseServerActions';
import { MessageText } from '../../../components/Message';

/** Failures of the retry queue shown on the card; the rest are counted in Pending. */
const FAILURES_SHOWN = 3;

function Line({ label, testId, children }: { label: MessageId; testId: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
      <MessageText fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} message={label} />
      <Text fz="sm" fw={600} ta="right" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** Records a full sync has pushed, and has to push, over its three phases. */
function fullSyncCounts(run: FullSyncDto): { done: number; total: number } {
  const phases = [run.versions, run.licenses, run.devices];
  return { done: phases.reduce((sum, p) => sum + p.done, 0), total: phases.reduce((sum, p) => sum + p.total, 0) };
}

function FullSyncLine({ run }: { run: FullSyncDto | null }) {
  if (!run) return <FormattedMessage id="admin.dashboard.health.sync.never" />;
  if (run.status !== 'running') return <FormattedMessage id={`admin.dashboard.health.sync.fullSync.${run.status}`} />;
  const { done, total } = fullSyncCounts(run);
  return (
    <Stack gap={2} align="flex-end">
      <FormattedMessage
        id={run.last_error ? 'admin.dashboard.health.sync.fullSync.failing' : 'admin.dashboard.health.sync.fullSync.running'}
        values={{ done, total }}
      />
      <Progress
        w={120}
        size="sm"
        value={total ? (done / total) * 100 : 0}
        color={run.last_error ? 'yellow' : 'blue'}
        aria-label={`${done} / ${total}`}
      />
    </Stack>
  );
}

/**
 * The license-server part of System Health: which server, whether it answers, last push and pull, what is pending,
 * the full sync's progress, the last reconcile's drift, the retry queue's failures with their reasons, and the
 * actions on them.
 */
export function LicenseServerHealth({ sync }: { sync: LicenseServerHealthDto }) {
  const intl = useIntl();
  const when = (value: string | null) =>
    value ? (
      intl.formatDate(value, { dateStyle: 'short', timeStyle: 'short' })
    ) : (
      <FormattedMessage id="admin.dashboard.health.sync.never" />
    );
  const reconcile = sync.reconcile;
  const drift = reconcile ? reconcile.missing_there + reconcile.missing_here + reconcile.different : 0;

  return (
    <Stack gap={6} mt="xs" data-testid="health-license-server">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <MessageText fz="sm" fw={700} message="admin.dashboard.health.sync.title" />
        {sync.reachable !== null && (
          <Badge color={sync.reachable ? '#1e6b2f' : 'red.9'} variant="filled" autoContrast data-testid="health-sync-reachable">
            <FormattedMessage id={sync.reachable ? 'admin.dashboard.health.sync.reachable' : 'admin.dashboard.health.sync.unreachable'} />
          </Badge>
        )}
      </Group>
      <Line label="admin.dashboard.health.sync.server" testId="health-sync-server">
        {sync.url ?? <FormattedMessage id="admin.dashboard.health.sync.self" />}
      </Line>
      {sync.external && (
        <>
          <Line label="admin.dashboard.health.sync.lastPush" testId="health-sync-last-push">
            {when(sync.last_push_at)}
          </Line>
          <Line label="admin.dashboard.health.sync.lastPull" testId="health-sync-last-pull">
            {when(sync.last_pull_at)}
          </Line>
          <Line label="admin.dashboard.health.sync.pending" testId="health-sync-pending">
            <FormattedMessage id="admin.dashboard.health.sync.pendingValue" values={{ ...sync.pending }} />
          </Line>
          <Line label="admin.dashboard.health.sync.fullSync" testId="health-sync-full-sync">
            <FullSyncLine run={sync.full_sync} />
          </Line>
          <Line label="admin.dashboard.health.sync.reconcile" testId="health-sync-reconcile">
            {!reconcile ? (
              <FormattedMessage id="admin.dashboard.health.sync.never" />
            ) : reconcile.status === 'completed' ? (
              drift ? (
                <FormattedMessage id="admin.dashboard.health.sync.drift" values={{ count: drift }} />
              ) : (
                <FormattedMessage id="admin.dashboard.health.sync.inStep" />
              )
            ) : (
              <FormattedMessage id={`admin.dashboard.health.sync.reconcile.${reconcile.status}`} />
            )}
          </Line>
          {sync.failures.slice(0, FAILURES_SHOWN).map((item) => (
            <Text key={`${item.kind}:${item.key}`} fz="xs" c="red.9" data-testid="health-sync-failure" style={{ overflowWrap: 'anywhere' }}>
              <FormattedMessage
                id="admin.dashboard.health.sync.failure"
                values={{
                  kind: intl.formatMessage({ id: `admin.dashboard.health.sync.kind.${item.kind}` }),
                  key: item.key,
                  attempts: item.attempts,
                }}
              />
              {item.last_error && ` — ${item.last_error}`}
            </Text>
          ))}
          <LicenseServerActions sync={sync} />
        </>
      )}
    </Stack>
  );
}
