import { Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconPackage, IconRefresh, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import {
  getGetLicenseServerStatusQueryKey,
  useGetLicenseServerStatus,
  useSyncVersion,
  useSyncVersions,
} from '../../../api/generated/endpoints/license-server/license-server';
import {
  getGetSupportedVersionsQueryKey,
  getListAdminVersionsQueryKey,
  useDeleteVersion,
  useListAdminVersions,
  useToggleVersionStatus,
} from '../../../api/generated/endpoints/versions/versions';
import type { AdminVersionDto, ListAdminVersionsSort, VersionSyncResponseDto } from '../../../api/generated/model';
import { paths } from '../../../lib/paths';
import { SuccessAlert } from '../../../components/SuccessAlert';
import { SearchField } from '../../../components/SearchField';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PagerBar } from '../../../components/PagerBar';
import { pageRange, nextSort } from '../../../components/pagination';
import { useFlash } from '../../../components/use-flash';
import type { MessageId } from '../../../i18n/message-id';
import { confirmDeleteVersion } from './version-confirmations';
import { LastSync, LicenseServerLine, SyncButton } from '../sync-controls';
import { failureText } from '../sync-display';
import { DEFAULT_SORT, MESSAGE_MS, PAGE_SIZE } from './version-display';
import { VersionEditModal } from './VersionEditModal';
import { VersionsTable } from './VersionsTable';
import { VersionUploadModal } from './VersionUploadModal';

export default function VersionsPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [sorting, setSorting] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<AdminVersionDto | null>(null);
  const [success, showSuccess] = useFlash(MESSAGE_MS);
  // Errors clear after 5 s too (admin spec section 8, Versions).
  const [actionError, setActionError] = useFlash(MESSAGE_MS);

  // A new search starts again on page 1.
  useEffect(() => setPage(1), [debouncedSearch]);

  const list = useListAdminVersions(
    { search: debouncedSearch.trim() || undefined, sort: sorting.sort, order: sorting.order, page, limit: PAGE_SIZE },
    { query: { placeholderData: keepPreviousData } },
  );
  const meta = list.data?.meta;
  const versions = list.data?.data ?? [];

  // A page that no longer exists (after a delete) moves to the last one.
  useEffect(() => {
    if (meta && page > meta.pages) setPage(meta.pages);
  }, [meta, page]);

  // Flags move between rows (one latest), so every change reloads the list rather than patching one row.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: getListAdminVersionsQueryKey().slice(0, 1) });
    void queryClient.invalidateQueries({ queryKey: getGetSupportedVersionsQueryKey() });
    void queryClient.invalidateQueries({ queryKey: getGetLicenseServerStatusQueryKey() });
  };
  const announce = (message: string) => {
    setActionError(null);
    showSuccess(message);
    refresh();
  };
  const succeeded = (id: MessageId, version: string) => announce(intl.formatMessage({ id }, { version }));
  /** `id` with the error's reason; `withoutReason` is the whole message when there is none. */
  const failed = (id: MessageId, withoutReason?: MessageId) => (error: Error) => {
    showSuccess(null);
    const bare = withoutReason && intl.formatMessage({ id: withoutReason });
    setActionError(failureText((message) => intl.formatMessage({ id }, { message }), bare, error.message));
    refresh();
  };

  const toggle = useToggleVersionStatus({
    mutation: {
      onSuccess: ({ data }, { data: { flag } }) =>
        succeeded(
          flag === 'is_latest'
            ? 'admin.versions.messages.latest'
            : data.is_stable
              ? 'admin.versions.messages.stable'
              : 'admin.versions.messages.beta',
          data.version,
        ),
      onError: (error, { data: { flag } }) =>
        failed(flag === 'is_latest' ? 'admin.versions.errors.latest' : 'admin.versions.errors.stable')(error),
    },
  });
  const remove = useDeleteVersion({ mutation: { onError: failed('admin.versions.errors.delete') } });
  const syncCompleted = ({ data }: VersionSyncResponseDto) =>
    announce(intl.formatMessage({ id: 'admin.versions.sync.completed' }, { created: data.synced_count, updated: data.updated_count }));
  const syncAll = useSyncVersions({
    mutation: { onSuccess: syncCompleted, onError: failed('admin.versions.sync.failed', 'admin.versions.sync.failedWithoutReason') },
  });
  const syncOne = useSyncVersion({ mutation: { onSuccess: syncCompleted, onError: failed('admin.versions.errors.sync') } });
  const server = useGetLicenseServerStatus();
  const deleteVersion = (version: AdminVersionDto) =>
    remove.mutate({ id: version.id }, { onSuccess: () => succeeded('admin.versions.messages.deleted', version.version) });

  const busyId = toggle.isPending
    ? (toggle.variables?.id ?? null)
    : remove.isPending
      ? (remove.variables?.id ?? null)
      : syncOne.isPending
        ? (syncOne.variables?.id ?? null)
        : null;
  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? PAGE_SIZE, meta?.total ?? 0);
  const lastSync = meta?.last_sync_at ?? null;
  const syncing = syncAll.isPending || syncOne.isPending;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.admin.dashboard} fz="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          <FormattedMessage id="admin.versions.back" />
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <FormattedMessage id="admin.versions.title" />
          </Title>
          <Text c="dimmed" fz="sm">
            <FormattedMessage id="admin.versions.subtitle" />
          </Text>
        </div>
        <Group gap="xs" wrap="wrap">
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
        </Group>
      </Group>

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

      {success && <SuccessAlert onClose={() => showSuccess(null)}>{success}</SuccessAlert>}
      {actionError && <ErrorAlert onClose={() => setActionError(null)}>{actionError}</ErrorAlert>}
      {list.error && (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'admin.versions.errors.load' }, { message: list.error.message })}
        </ErrorAlert>
      )}

      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchField
            label={intl.formatMessage({ id: 'admin.versions.searchLabel' })}
            placeholder={intl.formatMessage({ id: 'admin.versions.search' })}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={list.isFetching && !list.isLoading}>
            <FormattedMessage id="common.refresh" />
          </Button>
        </Group>
      </Card>

      {/* A failed load shows its error only: never an empty list or sample rows in its place. */}
      {!(list.error && !list.data) && (
        <Card withBorder radius="md" p={0}>
          {list.isLoading ? (
            <Group justify="center" p="xl">
              <Loader />
            </Group>
          ) : versions.length === 0 ? (
            <Stack align="center" gap={6} p="xl" ta="center" data-testid="versions-empty">
              <IconPackage size={40} color="var(--mantine-color-gray-5)" aria-hidden />
              <Text fw={600}>
                <FormattedMessage id="admin.versions.empty.title" />
              </Text>
              <Text fz="sm" c="dimmed">
                <FormattedMessage id={debouncedSearch.trim() ? 'admin.versions.empty.filtered' : 'admin.versions.empty.none'} />
              </Text>
            </Stack>
          ) : (
            <VersionsTable
              versions={versions}
              sort={sorting.sort}
              order={sorting.order}
              onSort={(sort: ListAdminVersionsSort) => {
                setSorting((current) => nextSort(current, sort));
                setPage(1);
              }}
              busyId={busyId}
              onToggleStable={(version) => toggle.mutate({ id: version.id, data: { flag: 'is_stable' } })}
              onMakeLatest={(version) => toggle.mutate({ id: version.id, data: { flag: 'is_latest' } })}
              onEdit={setEditing}
              onDelete={(version) => confirmDeleteVersion(intl, version, () => deleteVersion(version))}
              onSync={(version) => syncOne.mutate({ id: version.id })}
            />
          )}
        </Card>
      )}

      {meta &&
        (meta.pages > 1 ? (
          <PagerBar
            page={meta.page}
            pages={meta.pages}
            onPage={setPage}
            withEdges={false}
            summary={
              <span data-testid="versions-showing">
                <FormattedMessage id="admin.versions.showing" values={{ from, to, total: meta.total }} />
              </span>
            }
          />
        ) : (
          <Text fz="sm" c="dimmed" data-testid="versions-showing">
            <FormattedMessage id="admin.versions.showing" values={{ from, to, total: meta.total }} />
          </Text>
        ))}

      {uploading && (
        <VersionUploadModal
          opened
          onClose={() => setUploading(false)}
          onUploaded={(version) => {
            setUploading(false);
            succeeded('admin.versions.messages.uploaded', version.version);
          }}
        />
      )}
      {editing && (
        <VersionEditModal
          key={editing.id}
          version={editing}
          onClose={() => setEditing(null)}
          onSaved={(version) => {
            setEditing(null);
            succeeded('admin.versions.messages.updated', version.version);
          }}
        />
      )}
    </Stack>
  );
}
