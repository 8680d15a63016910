import { Badge, Group, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBrandApple, IconBrandUbuntu, IconBrandWindows } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { DistributionFileDto, ListDistributionFilesSort, OsType } from '../../../api/generated/model';
import { Column, ListTable } from '../../../components/admin-list/ListFrame';
import { DeleteAction } from '../../../components/admin-list/RowAction';
import type { TableSorting } from '../../../components/admin-list/use-server-list';
import { formatAdminBytes } from '../../../i18n/format';
import { shortHash } from './file-display';

const OS_ICONS: Record<OsType, typeof IconBrandWindows> = {
  windows: IconBrandWindows,
  linux: IconBrandUbuntu,
  macos: IconBrandApple,
};
const OS_COLORS: Record<OsType, string> = { windows: 'blue', linux: 'orange', macos: 'gray' };

const COLUMNS: Array<Column<ListDistributionFilesSort>> = [
  { sort: 'file_name', label: 'admin.files.columns.file' },
  { sort: 'version', label: 'admin.files.columns.version' },
  { sort: 'os_type', label: 'admin.files.columns.platform' },
  { sort: 'file_size', label: 'admin.files.columns.size' },
  { sort: 'download_count', label: 'admin.files.columns.downloads' },
  { sort: 'created_at', label: 'admin.files.columns.created' },
];

interface FilesTableProps {
  files: DistributionFileDto[];
  sorting: TableSorting<ListDistributionFilesSort>;
  onDelete: (file: DistributionFileDto) => void;
  /** The file being deleted: its button waits. */
  busyId: number | null;
}

/** The File Management table: file and hash, version, platform, size, downloads, created, delete. */
export function FilesTable({ files, sorting, onDelete, busyId }: FilesTableProps) {
  const intl = useIntl();
  return (
    <ListTable columns={[...COLUMNS, 'admin.files.columns.actions']} sorting={sorting} minWidth={860} testId="files-table">
      {files.map((file) => {
        const Icon = OS_ICONS[file.os_type];
        const os = intl.formatMessage({ id: `admin.files.os.${file.os_type}` });
        return (
          <Table.Tr key={file.id} data-testid={`file-row-${file.id}`}>
            <Table.Td maw={320}>
              <Text fz="sm" fw={600} style={{ wordBreak: 'break-all' }} data-testid="file-name">
                {file.file_name}
              </Text>
              <Tooltip label={file.file_hash} fz="xs" ff="monospace" multiline maw={320} style={{ wordBreak: 'break-all' }}>
                <Text
                  fz="xs"
                  c="dimmed"
                  ff="monospace"
                  w="max-content"
                  tabIndex={0}
                  aria-label={intl.formatMessage({ id: 'admin.files.hashLabel' }, { hash: file.file_hash })}
                >
                  {shortHash(file.file_hash)}
                </Text>
              </Tooltip>
            </Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
                  <FormattedMessage id="admin.files.versionLabel" values={{ version: file.version }} />
                </Text>
                {Number(file.is_latest) === 1 && (
                  <Badge size="xs" variant="light" color="green">
                    <FormattedMessage id="admin.files.latest" />
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>
              <Group gap={8} wrap="nowrap">
                <ThemeIcon variant="light" color={OS_COLORS[file.os_type]} size={28} radius="md" aria-hidden>
                  <Icon size={16} />
                </ThemeIcon>
                <Stack gap={0}>
                  <Text fz="sm" data-testid="file-os">
                    {os}
                  </Text>
                  <Text fz="xs" c="dimmed" data-testid="file-arch">
                    {file.architecture}
                  </Text>
                </Stack>
              </Group>
            </Table.Td>
            <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }} data-testid="file-size">
              {formatAdminBytes(file.file_size, intl.locale)}
            </Table.Td>
            <Table.Td fz="sm" data-testid="file-downloads">
              <FormattedNumber value={file.download_count} />
            </Table.Td>
            <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
              <FormattedDate value={file.created_at} dateStyle="medium" />
            </Table.Td>
            <Table.Td>
              <DeleteAction
                loading={busyId === file.id}
                label={intl.formatMessage({ id: 'admin.files.actions.delete' }, { name: file.file_name })}
                onClick={() => onDelete(file)}
              />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
