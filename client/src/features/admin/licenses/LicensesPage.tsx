import { Button, Group } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  exportLicenses,
  getGetLicenseStatsQueryKey,
  getListAdminLicensesQueryOptions,
  useActivateLicense,
  useDeleteAdminLicense,
  useGetLicenseStats,
  useRevokeLicense,
} from '../../../api/generated/endpoints/licenses/licenses';
import {
  getGetLicenseServerStatusQueryKey,
  useGetLicenseServerStatus,
  useSyncLicenses,
} from '../../../api/generated/endpoints/license-server/license-server';
import type { AdminLicenseDto, LicenseStatus } from '../../../api/generated/model';
import { busyRowId } from '../../../components/admin-list/busy-row';
import { listParams } from '../../../components/admin-list/list-state';
import { FilterSelect, RefreshButton } from '../../../components/admin-list/ListFrame';
import { ListScreen } from '../../../components/admin-list/ListScreen';
import { useAdminActions, useReload } from '../../../components/admin-list/use-admin-actions';
import { useServerList } from '../../../components/admin-list/use-server-list';
import { ExportMenu } from '../../../components/admin-list/ExportMenu';
import { SearchField } from '../../../components/SearchField';
import { confirmLicenseAction } from './license-confirmations';
import { DELETE_MESSAGE_MS, exportFileName, LICENSES_LIST, STATUSES, statusFilter } from './license-display';
import { LicenseAccessModal } from './LicenseAccessModal';
import { LicenseDevicesModal } from './LicenseDevicesModal';
import { LicenseCreateModal } from './LicenseCreateModal';
import { LicensesTable } from './LicensesTable';
import { LicenseStatsCards } from './LicenseStatsCards';
import { LastSync, LicenseServerLine, SyncButton } from '../../../components/license-server/sync-controls';

export default function LicensesPage() {
  const intl = useIntl();
  const list = useServerList(LICENSES_LIST, (state) =>
    getListAdminLicensesQueryOptions({ ...listParams(state), status: statusFilter(state.status) }),
  );
  const [creating, setCreating] = useState(false);
  const [granting, setGranting] = useState<AdminLicenseDto | null>(null);
  const [viewing, setViewing] = useState<AdminLicenseDto | null>(null);
  const stats = useGetLicenseStats();
  const licenses = list.result.data?.data ?? [];

  const refresh = useReload(list, getGetLicenseStatsQueryKey(), getGetLicenseServerStatusQueryKey());
  const actions = useAdminActions({ refresh });

  const revoke = useRevokeLicense(
    actions.mutation({
      success: 'adminLicenses.messages.revoked',
      failure: 'adminLicenses.errors.revoke',
      fallback: 'adminLicenses.errors.revokeFallback',
    }),
  );
  const activate = useActivateLicense(
    actions.mutation({ success: 'adminLicenses.messages.activated', failure: 'adminLicenses.errors.activate' }),
  );
  const remove = useDeleteAdminLicense(
    actions.mutation({
      success: ({ data }) =>
        intl.formatMessage(
          { id: 'adminLicenses.messages.deleted' },
          {
            server: intl.formatMessage({
              id: data.server_revocation_success ? 'adminLicenses.messages.deletedOnServer' : 'adminLicenses.messages.deletedServerWarning',
            }),
            count: data.deactivated_installations,
          },
        ),
      successMs: DELETE_MESSAGE_MS,
      failure: 'adminLicenses.errors.delete',
      fallback: 'adminLicenses.errors.deleteFallback',
    }),
  );

  const sync = useSyncLicenses(
    actions.mutation({
      success: ({ data }) =>
        intl.formatMessage({ id: 'adminLicenses.sync.completed' }, { created: data.synced_new, updated: data.updated_existing }),
      failure: 'adminLicenses.sync.failed',
    }),
  );
  const server = useGetLicenseServerStatus();
  const lastSync = server.data?.data.licenses_synced_at ?? null;

  const copyKey = async (license: AdminLicenseDto) => {
    try {
      await navigator.clipboard.writeText(license.license_key);
      actions.succeeded(intl.formatMessage({ id: 'adminLicenses.messages.copied' }, { key: license.license_key }));
    } catch (error) {
      actions.feedback.failed('adminLicenses.errors.copy')(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return (
    <ListScreen
      title="adminLicenses.title"
      actions={
        <>
          <SyncButton
            label="adminLicenses.sync.button"
            lastSync={lastSync}
            known={!!server.data}
            loading={sync.isPending}
            onClick={() => sync.mutate()}
          />
          <ExportMenu
            labels={{ button: 'adminLicenses.export.button', csv: 'adminLicenses.export.csv', json: 'adminLicenses.export.json' }}
            formats={['csv', 'json']}
            fetch={(format) => exportLicenses({ format, search: list.state.search || undefined, status: statusFilter(list.state.status) })}
            fileName={exportFileName}
            onError={actions.feedback.failed('adminLicenses.errors.export')}
          />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            <FormattedMessage id="adminLicenses.create" />
          </Button>
        </>
      }
      status={
        <Group gap="lg" wrap="wrap" data-testid="licenses-sync-status">
          <LicenseServerLine status={server.data?.data} syncing={sync.isPending} />
          {server.data && <LastSync lastSync={lastSync} testId="licenses-last-sync" />}
        </Group>
      }
      feedback={actions.feedback}
      list={list}
      moreLoads={[{ query: stats, message: 'adminLicenses.errors.stats' }]}
      figures={<LicenseStatsCards stats={stats.data?.data} loading={stats.isLoading} />}
      filters={
        <>
          <SearchField label="adminLicenses.searchLabel" placeholder="adminLicenses.search" {...list.searchProps} />
          <FilterSelect
            w={170}
            label={intl.formatMessage({ id: 'adminLicenses.filters.status' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'adminLicenses.filters.allStatuses' }) },
              ...STATUSES.map((value) => ({ value, label: intl.formatMessage({ id: `adminLicenses.status.${value}` }) })),
            ]}
            value={list.state.status}
            onChange={(value) => list.update({ status: value as LicenseStatus | 'all' })}
          />
          <RefreshButton result={list.result} onClick={refresh} />
        </>
      }
      isEmpty={licenses.length === 0}
      empty={{ icon: IconKey, testId: 'licenses-empty' }}
      pager={{ summary: 'adminLicenses.showing', testId: 'licenses-showing' }}
      table={
        <LicensesTable
          rows={licenses}
          sorting={list.sorting}
          busyId={busyRowId(revoke, activate, remove)}
          onRevoke={(license) => confirmLicenseAction(intl, 'revoke', license, () => revoke.mutate({ id: license.id }))}
          onActivate={(license) => activate.mutate({ id: license.id })}
          onAccess={setGranting}
          onDevices={setViewing}
          onCopy={copyKey}
          onDelete={(license) => confirmLicenseAction(intl, 'delete', license, () => remove.mutate({ id: license.id }))}
        />
      }
    >
      {viewing && <LicenseDevicesModal license={viewing} onClose={() => setViewing(null)} />}
      {granting && (
        <LicenseAccessModal
          license={granting}
          onClose={() => setGranting(null)}
          onSaved={(license) => {
            actions.succeeded(intl.formatMessage({ id: 'adminLicenses.messages.accessSaved' }, { key: license.license_key }));
            refresh();
          }}
        />
      )}
      {creating && (
        <LicenseCreateModal
          onClose={() => setCreating(false)}
          onCreated={(license) =>
            actions.succeeded(intl.formatMessage({ id: 'adminLicenses.messages.created' }, { key: license.license_key }))
          }
        />
      )}
    </ListScreen>
  );
}
