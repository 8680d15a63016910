import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
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
import { ActionFeedbackAlerts, useActionFeedback } from '../../../components/admin-list/use-action-feedback';

/** How long a sync action's success message shows (admin spec: 5 s for the tables' actions). */
const SUCCESS_MS = 5000;

/**
 * The operator's levers on the license-server sync: start a full sync, reconcile both sides, repair the drift the
 * last reconcile found (after a confirmation: it overwrites records on both sides), and retry the queued pushes now.
 * Each one answers with what it did or why it failed; System Health reloads after it.
 */
export function LicenseServerActions({ sync }: { sync: LicenseServerHealthDto }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const feedback = useActionFeedback({ successMs: SUCCESS_MS });
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetSystemHealthQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getGetLicenseServerStatusQueryKey() }),
    ]);
  const settled = { onSettled: reload };

  const fullSync = useStartFullSync({
    mutation: {
      ...settled,
      onSuccess: () => feedback.succeed(intl.formatMessage({ id: 'admin.dashboard.sync.fullSync.started' })),
      onError: feedback.failed('admin.dashboard.sync.failed'),
    },
  });
  const reconcile = useReconcileLicenseServer({
    mutation: {
      ...settled,
      onSuccess: ({ data: report }) => {
        const run = report.reconcile;
        const drift = run ? run.missing_there + run.missing_here + run.different : 0;
        feedback.succeed(intl.formatMessage({ id: 'admin.dashboard.sync.reconcile.done' }, { count: drift }));
      },
      onError: feedback.failed('admin.dashboard.sync.failed'),
    },
  });
  const repair = useRepairLicenseServerDrift({
    mutation: {
      ...settled,
      onSuccess: ({ data: result }) => {
        const run = result.reconcile;
        feedback.succeed(
          intl.formatMessage(
            { id: 'admin.dashboard.sync.repair.done' },
            {
              pushed: result.pushed_licenses + result.pushed_versions,
              pulled: result.pulled_licenses,
              left: run.missing_there + run.missing_here + run.different,
            },
          ),
        );
      },
      onError: feedback.failed('admin.dashboard.sync.failed'),
    },
  });
  const retry = useRetrySyncQueue({
    mutation: {
      ...settled,
      onSuccess: ({ data: result }) => feedback.succeed(intl.formatMessage({ id: 'admin.dashboard.sync.retry.done' }, { ...result })),
      onError: feedback.failed('admin.dashboard.sync.failed'),
    },
  });

  const busy = fullSync.isPending || reconcile.isPending || repair.isPending || retry.isPending;
  const running = sync.full_sync?.status === 'running';
  const last = sync.reconcile;
  const drift = last?.status === 'completed' ? last.missing_there + last.missing_here + last.different : 0;

  const confirmRepair = () =>
    modals.openConfirmModal({
      title: intl.formatMessage({ id: 'admin.dashboard.sync.repair.title' }),
      closeButtonProps: { 'aria-label': intl.formatMessage({ id: 'common.close' }) },
      children: (
        <Text fz="sm">
          <FormattedMessage id="admin.dashboard.sync.repair.question" values={{ count: drift, server: sync.url }} />
        </Text>
      ),
      labels: {
        confirm: intl.formatMessage({ id: 'admin.dashboard.sync.repair' }),
        cancel: intl.formatMessage({ id: 'common.cancel' }),
      },
      onConfirm: () => repair.mutate(),
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
      <ActionFeedbackAlerts feedback={feedback} />
    </Stack>
  );
}
