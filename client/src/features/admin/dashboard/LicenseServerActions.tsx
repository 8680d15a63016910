import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { getGetSystemHealthQueryKey } from '../../../api/generated/endpoints/dashboard/dashboard';
import {
  getGetLicenseServerStatusQueryKey,
  useReconcileLicenseServer,
  useRepairLicenseServerDrift,
  useRetrySyncQueue,
  useStartFullSync,
} from '../../../api/generated/endpoints/license-server/license-server';
import type { LicenseServerHealthDto } from '../../../api/generated/model';
import { ActionFeedbackAlerts } from '../../../components/admin-list/use-action-feedback';
import { useAdminActions } from '../../../components/admin-list/use-admin-actions';
import { confirmAction } from '../../../components/confirm-action';
import { MESSAGE_MS } from '../../../lib/admin-tables';

/** What a reconcile found differing between both sides. */
const driftOf = (run: { missing_there: number; missing_here: number; different: number }) =>
  run.missing_there + run.missing_here + run.different;

/**
 * The operator's levers on the license-server sync: start a full sync, reconcile both sides, repair the drift the
 * last reconcile found (after a confirmation: it overwrites records on both sides), and retry the queued pushes now.
 * Each one answers with what it did or why it failed; System Health reloads after it.
 */
export function LicenseServerActions({ sync }: { sync: LicenseServerHealthDto }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  // The buttons wait until System Health has reloaded.
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetSystemHealthQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getGetLicenseServerStatusQueryKey() }),
    ]);
  const actions = useAdminActions({ successMs: MESSAGE_MS, refresh: reload });
  const failure = 'admin.dashboard.sync.failed';

  const fullSync = useStartFullSync(actions.mutation({ success: 'admin.dashboard.sync.fullSync.started', failure }));
  const reconcile = useReconcileLicenseServer(
    actions.mutation({
      success: ({ data: { reconcile: run } }) =>
        intl.formatMessage({ id: 'admin.dashboard.sync.reconcile.done' }, { count: run ? driftOf(run) : 0 }),
      failure,
    }),
  );
  const repair = useRepairLicenseServerDrift(
    actions.mutation({
      success: ({ data: result }) =>
        intl.formatMessage(
          { id: 'admin.dashboard.sync.repair.done' },
          {
            pushed: result.pushed_licenses + result.pushed_versions,
            pulled: result.pulled_licenses,
            left: driftOf(result.reconcile),
          },
        ),
      failure,
    }),
  );
  const retry = useRetrySyncQueue(
    actions.mutation({
      success: ({ data: result }) => intl.formatMessage({ id: 'admin.dashboard.sync.retry.done' }, { ...result }),
      failure,
    }),
  );

  const busy = fullSync.isPending || reconcile.isPending || repair.isPending || retry.isPending;
  const running = sync.full_sync?.status === 'running';
  const last = sync.reconcile;
  const drift = last?.status === 'completed' ? driftOf(last) : 0;

  const confirmRepair = () =>
    confirmAction(intl, {
      title: 'admin.dashboard.sync.repair.title',
      children: (
        <Text fz="sm">
          <FormattedMessage id="admin.dashboard.sync.repair.question" values={{ count: drift, server: sync.url }} />
        </Text>
      ),
      confirm: 'admin.dashboard.sync.repair',
      onConfirm: () => repair.mutate(),
      destructive: false,
    });

  return (
    <Stack gap={6} data-testid="license-server-actions">
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          loading={fullSync.isPending}
          disabled={busy || running}
          onClick={() => fullSync.mutate()}
        >
          <FormattedMessage id="admin.dashboard.sync.fullSync" />
        </Button>
        <Button size="compact-sm" variant="default" loading={reconcile.isPending} disabled={busy} onClick={() => reconcile.mutate({})}>
          <FormattedMessage id="admin.dashboard.sync.reconcile" />
        </Button>
        <Button size="compact-sm" variant="default" loading={repair.isPending} disabled={busy || drift === 0} onClick={confirmRepair}>
          <FormattedMessage id="admin.dashboard.sync.repair" />
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          loading={retry.isPending}
          disabled={busy || sync.pending.queued === 0}
          onClick={() => retry.mutate()}
        >
          <FormattedMessage id="admin.dashboard.sync.retry" />
        </Button>
      </Group>
      <ActionFeedbackAlerts feedback={actions.feedback} />
    </Stack>
  );
}
