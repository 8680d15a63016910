import { Button } from '@mantine/core';
import { IconFiles, IconUpload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  getGetDistributionFileStatsQueryKey,
  getListDistributionFilesQueryOptions,
  getListDistributionFileVersionsQueryKey,
  useDeleteDistributionFile,
  useGetDistributionFileStats,
  useListDistributionFileVersions,
} from '../../../api/generated/endpoints/distribution-files/distribution-files';
import type { OsType } from '../../../api/generated/model';
import { busyRowId } from '../../../components/admin-list/busy-row';
import { listParams } from '../../../components/admin-list/list-state';
import { FilterSelect, RefreshButton } from '../../../components/admin-list/ListFrame';
import { ListScreen } from '../../../components/admin-list/ListScreen';
import { useAdminActions, useReload } from '../../../components/admin-list/use-admin-actions';
import { useServerList } from '../../../components/admin-list/use-server-list';
import { SearchField } from '../../../components/SearchField';
import { confirmDeleteFile } from './file-confirmations';
import { FILES_LIST, listFilters, OS_TYPES, versionChoiceLabel } from './file-display';
import { FilesTable } from './FilesTable';
import { FileStatsCards } from './FileStatsCards';
import { FileUploadModal } from './FileUploadModal';

export default function FilesPage() {
  const intl = useIntl();
  const list = useServerList(FILES_LIST, (state) => getListDistributionFilesQueryOptions({ ...listParams(state), ...listFilters(state) }));
  const [uploading, setUploading] = useState(false);
  const stats = useGetDistributionFileStats();
  const versions = useListDistributionFileVersions();
  const { state } = list;
  const files = list.result.data?.data ?? [];

  // A version filter whose version was deleted meanwhile (or never existed) falls back to All Versions.
  const choices = versions.data?.data;
  const unknownVersion = !!choices && state.versionId !== 'all' && !choices.some((choice) => String(choice.id) === state.versionId);
  const { update } = list;
  useEffect(() => {
    if (unknownVersion) update({ versionId: 'all' }, { replace: true });
  }, [unknownVersion, update]);

  const refresh = useReload(list, getGetDistributionFileStatsQueryKey(), getListDistributionFileVersionsQueryKey());
  const actions = useAdminActions({ refresh });
  const remove = useDeleteDistributionFile(
    actions.mutation({ success: 'admin.files.messages.deleted', failure: 'admin.files.errors.delete' }),
  );

  return (
    <ListScreen
      title="admin.files.title"
      subtitle={<FormattedMessage id="admin.files.subtitle" />}
      actions={
        <Button leftSection={<IconUpload size={16} />} onClick={() => setUploading(true)}>
          <FormattedMessage id="admin.files.uploadButton" />
        </Button>
      }
      feedback={actions.feedback}
      list={list}
      moreLoads={[
        { query: stats, message: 'admin.files.errors.load' },
        { query: versions, message: 'admin.files.errors.versions' },
      ]}
      figures={<FileStatsCards stats={stats.data?.data} loading={stats.isLoading} />}
      filters={
        <>
          <SearchField label="admin.files.filters.searchLabel" placeholder="admin.files.filters.search" {...list.searchProps} />
          <FilterSelect
            style={{ flex: '1 1 200px' }}
            maw={280}
            label={intl.formatMessage({ id: 'admin.files.filters.version' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.files.filters.allVersions' }) },
              ...(choices ?? []).map((choice) => ({ value: String(choice.id), label: versionChoiceLabel(intl, choice) })),
            ]}
            value={state.versionId}
            onChange={(versionId) => list.update({ versionId })}
          />
          <FilterSelect
            style={{ flex: '0 1 170px' }}
            label={intl.formatMessage({ id: 'admin.files.filters.platform' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.files.filters.allPlatforms' }) },
              ...OS_TYPES.map((value) => ({ value, label: intl.formatMessage({ id: `admin.files.os.${value}` }) })),
            ]}
            value={state.os}
            onChange={(os) => list.update({ os: os as OsType | 'all' })}
          />
          <RefreshButton result={list.result} onClick={refresh} />
        </>
      }
      isEmpty={files.length === 0}
      loadingLabel={intl.formatMessage({ id: 'admin.files.loading' })}
      empty={{ icon: IconFiles, testId: 'files-empty' }}
      pager={{ summary: 'admin.files.showing', testId: 'files-showing' }}
      table={
        <FilesTable
          rows={files}
          sorting={list.sorting}
          busyId={busyRowId(remove)}
          onDelete={(file) => confirmDeleteFile(intl, file, () => remove.mutate({ id: file.id }))}
        />
      }
    >
      {uploading && (
        <FileUploadModal
          onClose={() => setUploading(false)}
          onUploaded={(file) => actions.succeeded(intl.formatMessage({ id: 'admin.files.messages.uploaded' }, { name: file.file_name }))}
        />
      )}
    </ListScreen>
  );
}
