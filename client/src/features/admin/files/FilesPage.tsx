import { Anchor, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconFiles, IconRefresh, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import {
  getGetDistributionFileStatsQueryKey,
  getListDistributionFilesQueryKey,
  getListDistributionFileVersionsQueryKey,
  useDeleteDistributionFile,
  useGetDistributionFileStats,
  useListDistributionFiles,
  useListDistributionFileVersions,
} from '../../../api/generated/endpoints/distribution-files/distribution-files';
import type { ListDistributionFilesSort, OsType } from '../../../api/generated/model';
import { paths } from '../../../lib/paths';
import { SuccessAlert } from '../../../components/SuccessAlert';
import { SearchField } from '../../../components/SearchField';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PagerBar } from '../../../components/PagerBar';
import { pageRange, nextSort } from '../../../components/pagination';
import { useFlash } from '../../../components/use-flash';
import { confirmDeleteFile } from './file-confirmations';
import { DEFAULT_SORT, listFilters, MESSAGE_MS, OS_TYPES, PAGE_SIZE, versionChoiceLabel } from './file-display';
import { FilesTable } from './FilesTable';
import { FileStatsCards } from './FileStatsCards';
import { FileUploadModal } from './FileUploadModal';

export default function FilesPage() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [versionId, setVersionId] = useState('all');
  const [os, setOs] = useState<OsType | 'all'>('all');
  const [sorting, setSorting] = useState(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [success, showSuccess] = useFlash(MESSAGE_MS);
  const [actionError, setActionError] = useState<string | null>(null);

  // A new search or filter starts again on page 1.
  useEffect(() => setPage(1), [debouncedSearch, versionId, os]);

  const filters = listFilters({ search: debouncedSearch, versionId, os });
  const list = useListDistributionFiles(
    { ...filters, sort: sorting.sort, order: sorting.order, page, limit: PAGE_SIZE },
    { query: { placeholderData: keepPreviousData } },
  );
  const stats = useGetDistributionFileStats();
  const versions = useListDistributionFileVersions();
  const meta = list.data?.meta;
  const files = list.data?.data ?? [];

  // A version filter whose version was deleted meanwhile falls back to All Versions.
  useEffect(() => {
    const choices = versions.data?.data;
    if (choices && versionId !== 'all' && !choices.some((choice) => String(choice.id) === versionId)) setVersionId('all');
  }, [versions.data, versionId]);

  // A page that no longer exists (after a delete) moves to the last one.
  useEffect(() => {
    if (meta && page > Math.max(1, meta.pages)) setPage(Math.max(1, meta.pages));
  }, [meta, page]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: getListDistributionFilesQueryKey().slice(0, 1) });
    void queryClient.invalidateQueries({ queryKey: getGetDistributionFileStatsQueryKey() });
    void queryClient.invalidateQueries({ queryKey: getListDistributionFileVersionsQueryKey() });
  };

  const remove = useDeleteDistributionFile({
    mutation: {
      onSuccess: () => {
        setActionError(null);
        showSuccess(intl.formatMessage({ id: 'admin.files.messages.deleted' }));
        refresh();
      },
      onError: (error) => {
        showSuccess(null);
        setActionError(intl.formatMessage({ id: 'admin.files.errors.delete' }, { message: error.message }));
      },
    },
  });

  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? PAGE_SIZE, meta?.total ?? 0);
  const filtered = !!filters.search || filters.version_id !== undefined || filters.os_type !== undefined;
  const summary = <FormattedMessage id="admin.files.showing" values={{ from, to, total: meta?.total ?? 0 }} />;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.admin.dashboard} fz="sm" w="fit-content">
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={14} aria-hidden />
          <FormattedMessage id="admin.files.back" />
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={2}>
            <FormattedMessage id="admin.files.title" />
          </Title>
          <Text c="dimmed" fz="sm">
            <FormattedMessage id="admin.files.subtitle" />
          </Text>
        </div>
        <Button leftSection={<IconUpload size={16} />} onClick={() => setUploading(true)}>
          <FormattedMessage id="admin.files.uploadButton" />
        </Button>
      </Group>

      {success && <SuccessAlert onClose={() => showSuccess(null)}>{success}</SuccessAlert>}
      {actionError && <ErrorAlert onClose={() => setActionError(null)}>{actionError}</ErrorAlert>}
      {list.error && (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'admin.files.errors.load' }, { message: list.error.message })}
        </ErrorAlert>
      )}
      {stats.error && (
        <ErrorAlert onRetry={() => stats.refetch()}>
          {intl.formatMessage({ id: 'admin.files.errors.load' }, { message: stats.error.message })}
        </ErrorAlert>
      )}
      {versions.error && (
        <ErrorAlert onRetry={() => versions.refetch()}>
          {intl.formatMessage({ id: 'admin.files.errors.versions' }, { message: versions.error.message })}
        </ErrorAlert>
      )}

      <FileStatsCards stats={stats.data?.data} loading={stats.isLoading} />

      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SearchField
            label={intl.formatMessage({ id: 'admin.files.filters.searchLabel' })}
            placeholder={intl.formatMessage({ id: 'admin.files.filters.search' })}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Select
            style={{ flex: '1 1 200px' }}
            maw={280}
            label={intl.formatMessage({ id: 'admin.files.filters.version' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.files.filters.allVersions' }) },
              ...(versions.data?.data ?? []).map((choice) => ({ value: String(choice.id), label: versionChoiceLabel(intl, choice) })),
            ]}
            value={versionId}
            allowDeselect={false}
            onChange={(value) => setVersionId(value ?? 'all')}
          />
          <Select
            style={{ flex: '0 1 170px' }}
            label={intl.formatMessage({ id: 'admin.files.filters.platform' })}
            data={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.files.filters.allPlatforms' }) },
              ...OS_TYPES.map((value) => ({ value, label: intl.formatMessage({ id: `admin.files.os.${value}` }) })),
            ]}
            value={os}
            allowDeselect={false}
            onChange={(value) => setOs((value ?? 'all') as OsType | 'all')}
          />
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refresh} loading={list.isFetching && !list.isLoading}>
            <FormattedMessage id="common.refresh" />
          </Button>
        </Group>
      </Card>

      <Card withBorder radius="md" p={0}>
        {list.isLoading ? (
          <Group justify="center" p="xl">
            <Loader aria-label={intl.formatMessage({ id: 'admin.files.loading' })} />
          </Group>
        ) : files.length === 0 ? (
          list.error ? null : (
            <Stack align="center" gap={6} p="xl" ta="center" data-testid="files-empty">
              <IconFiles size={40} color="var(--mantine-color-gray-5)" aria-hidden />
              <Text fw={600}>
                <FormattedMessage id="admin.files.empty.title" />
              </Text>
              <Text fz="sm" c="dimmed">
                <FormattedMessage id={filtered ? 'admin.files.empty.filtered' : 'admin.files.empty.none'} />
              </Text>
            </Stack>
          )
        ) : (
          <FilesTable
            files={files}
            sort={sorting.sort}
            order={sorting.order}
            onSort={(sort: ListDistributionFilesSort) => {
              setSorting((current) => nextSort(current, sort));
              setPage(1);
            }}
            busyId={remove.isPending ? (remove.variables?.id ?? null) : null}
            onDelete={(file) => confirmDeleteFile(intl, file, () => remove.mutate({ id: file.id }))}
          />
        )}
      </Card>

      {meta &&
        (meta.pages > 1 ? (
          <PagerBar page={meta.page} pages={meta.pages} onPage={setPage} summary={<span data-testid="files-showing">{summary}</span>} />
        ) : (
          <Text fz="sm" c="dimmed" data-testid="files-showing">
            {summary}
          </Text>
        ))}

      {uploading && (
        <FileUploadModal
          opened
          onClose={() => setUploading(false)}
          onUploaded={(file) => {
            setUploading(false);
            setActionError(null);
            showSuccess(intl.formatMessage({ id: 'admin.files.messages.uploaded' }, { name: file.file_name }));
            refresh();
          }}
        />
      )}
    </Stack>
  );
}
