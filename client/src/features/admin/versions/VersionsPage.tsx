import { Button, Card, Group, Text } from '@mantine/core';
import { IconPackage, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage, IntlShape, useIntl } from 'react-intl';
import {
  getGetLicenseServerStatusQueryKey,
  useGetLicenseServerStatus,
  useSyncVersion,
  useSyncVersions,
} from '../../../api/generated/endpoints/license-server/license-server';
import {
  getGetSupportedVersionsQueryKey,
  getListAdminVersionsQueryOptions,
  useDeleteVersion,
  useToggleVersionStatus,
  useUpdateVersion,
} from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto, ReleaseRolloutDto, VersionSyncResponseDto } from '../../../api/generated/model';
import { busyRowId } from '../../../components/admin-list/busy-row';
import { listParams } from '../../../components/admin-list/list-state';
import { FilterSelect, RefreshButton } from '../../../components/admin-list/ListFrame';
import { ListScreen } from '../../../components/admin-list/ListScreen';
import { useAdminActions, useReload } from '../../../components/admin-list/use-admin-actions';
import { useServerList } from '../../../components/admin-list/use-server-list';
import { SearchField } from '../../../components/SearchField';
import { LastSync, LicenseServerLine, SyncButton } from '../../../components/license-server/sync-controls';
import { confirmDeleteVersion, confirmYankVersion } from './version-confirmations';
import { MESSAGE_MS } from '../../../lib/admin-tables';
import { CHANNELS, STATES, VERSIONS_LIST, versionFilters } from './version-display';
import { VersionEditModal } from './VersionEditModal';
import { VersionsTable } from './VersionsTable';
import { VersionUploadModal } from './VersionUploadModal';
import { RolloutModal } from './RolloutModal';

/** What a saved rollout says: its share, paused, or finished. */
function rolloutMessage(intl: IntlShape, rollout: ReleaseRolloutDto): string {
  const values = { version: rollout.version, percent: rollout.rollout_percent };
  if (rollout.rollout_paused) return intl.formatMessage({ id: 'admin.versions.messages.rolloutPaused' }, values);
  if (rollout.rollout_percent === 100) return intl.formatMessage({ id: 'admin.versions.messages.rolloutFinished' }, values);
  return intl.formatMessage({ id: 'admin.versions.messages.rollout' }, values);
}

export default function VersionsPage() {
  const intl = useIntl();
  const list = useServerList(VERSIONS_LIST, (state) =>
    getListAdminVersionsQueryOptions({ ...listParams(state), ...versionFilters(state) }),
  );
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<AdminVersionDto | null>(null);
  const [rollingOut, setRollingOut] = useState<AdminVersionDto | null>(null);
  const meta = list.meta;
  const versions = list.result.data?.data ?? [];

  // Flags move between rows (one latest), so every change reloads the list rather than patching one row.
  const refresh = useReload(list, getGetSupportedVersionsQueryKey(), getGetLicenseServerStatusQueryKey());
  // Errors clear after 5 s too (admin spec section 8, Versions).
  const actions = useAdminActions({ errorMs: MESSAGE_MS, refresh });
  const named = (version: Pick<AdminVersionDto, 'version'>) => ({ version: version.version });

  const makeStable = useToggleVersionStatus(
    actions.mutation({
      success: ({ data }) =>
        intl.formatMessage({ id: data.is_stable ? 'admin.versions.messages.stable' : 'admin.versions.messages.beta' }, named(data)),
      failure: 'admin.versions.errors.stable',
    }),
  );
  const makeLatest = useToggleVersionStatus(
    actions.mutation({
      success: ({ data }) => intl.formatMessage({ id: 'admin.versions.messages.latest' }, named(data)),
      failure: 'admin.versions.errors.latest',
    }),
  );
  const setState = useUpdateVersion(
    actions.mutation({
      success: ({ data }) => intl.formatMessage({ id: `admin.versions.messages.${data.state}` }, named(data)),
      failure: 'admin.versions.errors.state',
    }),
  );
  const remove = useDeleteVersion(actions.mutation({ failure: 'admin.versions.errors.delete' }));
  const syncCompleted = ({ data }: VersionSyncResponseDto) =>
    intl.formatMessage({ id: 'admin.versions.sync.completed' }, { created: data.synced_count, updated: data.updated_count });
  const syncAll = useSyncVersions(
    actions.mutation({
      success: syncCompleted,
      failure: 'admin.versions.sync.failed',
      withoutReason: 'admin.versions.sync.failedWithoutReason',
    }),
  );
  const syncOne = useSyncVersion(actions.mutation({ success: syncCompleted, failure: 'admin.versions.errors.sync' }));
  const server = useGetLicenseServerStatus();
  // The answer does not name the version, so the message is said where it still is known.
  const deleteVersion = (version: AdminVersionDto) =>
    remove.mutate(
      { id: version.id },
      { onSuccess: () => actions.feedback.succeed(intl.formatMessage({ id: 'admin.versions.messages.deleted' }, named(version))) },
    );

  const lastSync = meta?.last_sync_at ?? null;
  const syncing = syncAll.isPending || syncOne.isPending;

  return (
    <ListScreen
      title="admin.versions.title"
      actions={
        <>
          <SyncButton
            label="admin.versions.sync.button"
            lastSync={lastSync}
            known={!!meta}
            loading={syncAll.isPending}
            disabled={syncing}
            onClick={() => syncAll.mutate()}
          />
          <Button leftSection={<IconUpload size={16} />} onClick={() => setUploading(true)}>
            <FormattedMessage id="admin.versions.upload.button" />
          </Button>
        </>
      }
      status={
        <Card withBorder radius="md" p="sm" data-testid="versions-status">
          <Group gap="lg" wrap="wrap">
            <Group gap={6} wrap="nowrap">
              <IconPackage size={16} aria-hidden />
              <Text fz="sm">
                <FormattedMessage id="admin.versions.status.count" values={{ count: meta?.overall_total ?? 0 }} />
              </Text>
            </Group>
            <LicenseServerLine status={server.data?.data} syncing={syncing} />
            {meta && <LastSync lastSync={lastSync} testId="versions-last-sync" />}
          </Group>
        </Card>
      }
      feedback={actions.feedback}
      list={list}
      filters={
        <>
          <SearchField label="admin.versions.searchLabel" placeholder="admin.versions.search" {...list.searchProps} />
          <FilterSelect
            style={{ flex: '0 1 170px' }}
            label={intl.formatMessage({ id: 'admin.versions.filters.channel' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.versions.filters.allChannels' }) },
              ...CHANNELS.map((value) => ({ value, label: intl.formatMessage({ id: `admin.versions.channel.${value}` }) })),
            ]}
            value={list.state.channel}
            onChange={(channel) => list.update({ channel: channel as typeof list.state.channel })}
            data-testid="versions-filter-channel"
          />
          <FilterSelect
            style={{ flex: '0 1 170px' }}
            label={intl.formatMessage({ id: 'admin.versions.filters.state' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.versions.filters.allStates' }) },
              ...STATES.map((value) => ({ value, label: intl.formatMessage({ id: `admin.versions.state.${value}` }) })),
            ]}
            value={list.state.state}
            onChange={(state) => list.update({ state: state as typeof list.state.state })}
            data-testid="versions-filter-state"
          />
          <RefreshButton result={list.result} onClick={refresh} />
        </>
      }
      isEmpty={versions.length === 0}
      empty={{ icon: IconPackage, testId: 'versions-empty' }}
      pager={{ summary: 'admin.versions.showing', testId: 'versions-showing', withEdges: false }}
      table={
        <VersionsTable
          rows={versions}
          sorting={list.sorting}
          busyId={busyRowId(makeStable, makeLatest, setState, remove, syncOne)}
          onToggleStable={(version) => makeStable.mutate({ id: version.id, data: { flag: 'is_stable' } })}
          onMakeLatest={(version) => makeLatest.mutate({ id: version.id, data: { flag: 'is_latest' } })}
          onEdit={setEditing}
          onDelete={(version) => confirmDeleteVersion(intl, version, () => deleteVersion(version))}
          onSync={(version) => syncOne.mutate({ id: version.id })}
          onPublish={(version) => setState.mutate({ id: version.id, data: { state: 'published' } })}
          onRollout={setRollingOut}
          onYank={(version) => confirmYankVersion(intl, version, () => setState.mutate({ id: version.id, data: { state: 'yanked' } }))}
        />
      }
    >
      {uploading && (
        <VersionUploadModal
          onClose={() => setUploading(false)}
          onUploaded={(version) => actions.succeeded(intl.formatMessage({ id: 'admin.versions.messages.uploaded' }, named(version)))}
        />
      )}
      {rollingOut && (
        <RolloutModal
          key={rollingOut.id}
          version={rollingOut}
          onClose={() => setRollingOut(null)}
          onSaved={(rollout) => actions.succeeded(rolloutMessage(intl, rollout))}
        />
      )}
      {editing && (
        <VersionEditModal
          key={editing.id}
          version={editing}
          onClose={() => setEditing(null)}
          onSaved={(version) => actions.succeeded(intl.formatMessage({ id: 'admin.versions.messages.updated' }, named(version)))}
        />
      )}
    </ListScreen>
  );
}
