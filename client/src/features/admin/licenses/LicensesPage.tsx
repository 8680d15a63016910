import { Anchor, Button, Card, Group, Loader, Menu, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconDownload, IconKey, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import {
  exportLicenses,
  getGetLicenseStatsQueryKey,
  getListAdminLicensesQueryKey,
  useActivateLicense,
  useDeleteAdminLicense,
  useGetLicenseStats,
  useListAdminLicenses,
  useRevokeLicense,
} from '../../../api/generated/endpoints/licenses/licenses';
import {
  getGetLicenseServerStatusQueryKey,
  useGetLicenseServerStatus,
  useSyncLicenses,
} from '../../../api/generated/endpoints/license-server/license-server';
import type { AdminLicenseDto, LicenseStatus, ListAdminLicensesSort } from '../../../api/generated/model';
import { paths } from '../../../lib/paths';
import { SuccessAlert } from '../../../components/SuccessAlert';
import { SearchField } from '../../../components/SearchField';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PagerBar } from '../../../components/PagerBar';
import { pageRange, nextSort } from '../../../components/pagination';
import { useFlash } from '../../../components/use-flash';
import type { MessageId } from '../../../i18n/message-id';
import { confirmDeleteLicense, confirmRevokeLicense } from './license-confirmations';
import { DEFAULT_SORT, DELETE_MESSAGE_MS, exportFileName, exportText, MESSAGE_MS, PAGE_SIZE } from './license-display';
import { LicenseCreateModal } from './LicenseCreateModal';
import { LicensesTable } from './LicensesTable';
import { LicenseStatsCards } from './LicenseStatsCards';
import { LastSync, LicenseServerLine, SyncButton } from '../sync-controls';

const STATUSES: LicenseStatus[] = ['active', 'expired', 'revoked', 'pending'];

/** Saves text as a file through a temporary object URL. */
function saveFile(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export default function LicensesPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [status, setStatus] = useState<LicenseStatus | 'all'>('all');
  const [sorting, setSorting] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [success, showSuccess] = useFlash(MESSAGE_MS);
  const [deleted, showDeleted] = useFlash(DELETE_MESSAGE_MS);
  const [actionError, setActionError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  // A new search or filter starts again on page 1.
  useEffect(() => setPage(1), [debouncedSearch, status]);

  const list = useListAdminLicenses(
    {
      search: debouncedSearch.trim() || undefined,
      status: status === 'all' ? undefined : status,
      sort: sorting.sort,
      order: sorting.order,
      page,
      limit: PAGE_SIZE,
    },
    { query: { placeholderData: keepPreviousData } },
  );
  const stats = useGetLicenseStats();
  const meta = list.data?.meta;
  const licenses = list.data?.data ?? [];

  // A page that no longer exists (after a delete) moves to the last one.
  useEffect(() => {
    if (meta && page > meta.pages) setPage(meta.pages);
  }, [meta, page]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: getListAdminLicensesQueryKey().slice(0, 1) });
    void queryClient.invalidateQueries({ queryKey: getGetLicenseStatsQueryKey() });
    void queryClient.invalidateQueries({ queryKey: getGetLicenseServerStatusQueryKey() });
  };
  const succeeded = (message: string, flash = showSuccess) => {
    setActionError(null);
    showSuccess(null);
    showDeleted(null);
    flash(message);
    refresh();
  };
  const failed = (id: MessageId, fallback?: MessageId) => (error: Error) => {
    showSuccess(null);
    showDeleted(null);
    const message = error.message || (fallback ? intl.formatMessage({ id: fallback }) : '');
    setActionError(intl.formatMessage({ id }, { message }));
  };

  const revoke = useRevokeLicense({
    mutation: {
      onSuccess: () => succeeded(intl.formatMessage({ id: 'adminLicenses.messages.revoked' })),
      onError: failed('adminLicenses.errors.revoke', 'adminLicenses.errors.revokeFallback'),
    },
  });
  const activate = useActivateLicense({
    mutation: {
      onSuccess: () => succeeded(intl.formatMessage({ id: 'adminLicenses.messages.activated' })),
      onError: failed('adminLicenses.errors.activate'),
    },
  });
  const remove = useDeleteAdminLicense({
    mutation: {
      onSuccess: ({ data }) =>
        succeeded(
          intl.formatMessage(
            { id: 'adminLicenses.messages.deleted' },
            {
              server: intl.formatMessage({
                id: data.server_revocation_success
                  ? 'adminLicenses.messages.deletedOnServer'
                  : 'adminLicenses.messages.deletedServerWarning',
              }),
              count: data.deactivated_installations,
            },
          ),
          showDeleted,
        ),
      onError: failed('adminLicenses.errors.delete', 'adminLicenses.errors.deleteFallback'),
    },
  });

  const sync = useSyncLicenses({
    mutation: {
      onSuccess: ({ data }) =>
        succeeded(intl.formatMessage({ id: 'adminLicenses.sync.completed' }, { created: data.synced_new, updated: data.updated_existing })),
      onError: (error) => {
        failed('adminLicenses.sync.failed')(error);
        void queryClient.invalidateQueries({ queryKey: getGetLicenseServerStatusQueryKey() });
      },
    },
  });
  const server = useGetLicenseServerStatus();
  const lastSync = server.data?.data.licenses_synced_at ?? null;

  const busyId = revoke.isPending
    ? (revoke.variables?.id ?? null)
    : activate.isPending
      ? (activate.variables?.id ?? null)
      : remove.isPending
        ? (remove.variables?.id ?? null)
        : null;

  const copyKey = async (license: AdminLicenseDto) => {
    try {
      await navigator.clipboard.writeText(license.license_key);
      succeeded(intl.formatMessage({ id: 'adminLicenses.messages.copied' }, { key: license.license_key }));
    } catch (error) {
      failed('adminLicenses.errors.copy')(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const download = async (format: 'csv' | 'json') => {
    setExporting(true);
    try {
      const body = await exportLicenses({
        format,
        search: debouncedSearch.trim() || undefined,
        status: status === 'all' ? undefined : status,
      });
      saveFile(exportText(body, format), exportFileName(format), format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json');
    } catch (error) {
      failed('adminLicenses.errors.export')(error as Error);
    } finally {
      setExporting(false);
    }
  };

  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? PAGE_SIZE, meta?.total ?? 0);
  const filtered = !!debouncedSearch.trim() || status !== 'all';

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.admin.dashboard} fz="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          <FormattedMessage id="adminLicenses.back" />
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <FormattedMessage id="adminLicenses.title" />
          </Title>
          <Text c="dimmed" fz="sm">
            <FormattedMessage id="adminLicenses.subtitle" />
          </Text>
        </div>
        <Group gap="xs" wrap="wrap">
          <SyncButton
            label="adminLicenses.sync.button"
            lastSync={lastSync}
            known={!!server.data}
            loading={sync.isPending}
            onClick={() => sync.mutate()}
          />
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconDownload size={16} />} loading={exporting}>
                <FormattedMessage id="adminLicenses.export.button" />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => download('csv')}>
                <FormattedMessage id="adminLicenses.export.csv" />
              </Menu.Item>
              <Menu.Item onClick={() => download('json')}>
                <FormattedMessage id="adminLicenses.export.json" />
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            <FormattedMessage id="adminLicenses.create" />
          </Button>
        </Group>
      </Group>

      <Group gap="lg" wrap="wrap" data-testid="licenses-sync-status">
        <LicenseServerLine status={server.data?.data} syncing={sync.isPending} />
        {server.data && <LastSync lastSync={lastSync} testId="licenses-last-sync" />}
      </Group>

      {[success, deleted].map(
        (message) =>
          message && (
            <SuccessAlert
              key={message}
              onClose={() => {
                showSuccess(null);
                showDeleted(null);
              }}
            >
              {message}
            </SuccessAlert>
          ),
      )}
      {actionError && <ErrorAlert onClose={() => setActionError(null)}>{actionError}</ErrorAlert>}
      {list.error && (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'adminLicenses.errors.load' }, { message: list.error.message })}
        </ErrorAlert>
      )}
      {stats.error && (
        <ErrorAlert onRetry={() => stats.refetch()}>
          {intl.formatMessage({ id: 'adminLicenses.errors.stats' }, { message: stats.error.message })}
        </ErrorAlert>
      )}

      <LicenseStatsCards stats={stats.data?.data} loading={stats.isLoading} />

      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchField
            label={intl.formatMessage({ id: 'adminLicenses.searchLabel' })}
            placeholder={intl.formatMessage({ id: 'adminLicenses.search' })}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Select
            w={170}
            label={intl.formatMessage({ id: 'adminLicenses.filters.status' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'adminLicenses.filters.allStatuses' }) },
              ...STATUSES.map((value) => ({ value, label: intl.formatMessage({ id: `adminLicenses.status.${value}` }) })),
            ]}
            value={status}
            allowDeselect={false}
            onChange={(value) => setStatus((value ?? 'all') as LicenseStatus | 'all')}
          />
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={list.isFetching && !list.isLoading}>
            <FormattedMessage id="common.refresh" />
          </Button>
        </Group>
      </Card>

      <Card withBorder radius="md" p={0}>
        {list.isLoading ? (
          <Group justify="center" p="xl">
            <Loader />
          </Group>
        ) : licenses.length === 0 ? (
          <Stack align="center" gap={6} p="xl" ta="center" data-testid="licenses-empty">
            <IconKey size={40} color="var(--mantine-color-gray-5)" aria-hidden />
            <Text fw={600}>
              <FormattedMessage id="adminLicenses.empty.title" />
            </Text>
            <Text fz="sm" c="dimmed">
              <FormattedMessage id={filtered ? 'adminLicenses.empty.filtered' : 'adminLicenses.empty.none'} />
            </Text>
          </Stack>
        ) : (
          <LicensesTable
            licenses={licenses}
            sort={sorting.sort}
            order={sorting.order}
            onSort={(sort: ListAdminLicensesSort) => {
              setSorting((current) => nextSort(current, sort));
              setPage(1);
            }}
            busyId={busyId}
            onRevoke={(license) => confirmRevokeLicense(intl, license, () => revoke.mutate({ id: license.id }))}
            onActivate={(license) => activate.mutate({ id: license.id })}
            onCopy={copyKey}
            onDelete={(license) => confirmDeleteLicense(intl, license, () => remove.mutate({ id: license.id }))}
          />
        )}
      </Card>

      {meta &&
        (meta.pages > 1 ? (
          <PagerBar
            page={meta.page}
            pages={meta.pages}
            onPage={setPage}
            summary={
              <span data-testid="licenses-showing">
                <FormattedMessage id="adminLicenses.showing" values={{ from, to, total: meta.total }} />
              </span>
            }
          />
        ) : (
          <Text fz="sm" c="dimmed" data-testid="licenses-showing">
            <FormattedMessage id="adminLicenses.showing" values={{ from, to, total: meta.total }} />
          </Text>
        ))}

      {creating && (
        <LicenseCreateModal
          opened
          onClose={() => setCreating(false)}
          onCreated={(license) => {
            setCreating(false);
            succeeded(intl.formatMessage({ id: 'adminLicenses.messages.created' }, { key: license.license_key }));
          }}
        />
      )}
    </Stack>
  );
}
