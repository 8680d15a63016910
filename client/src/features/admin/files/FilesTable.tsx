import { Badge, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBrandApple, IconBrandUbuntu, IconBrandWindows } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, FormattedNumber, IntlShape, useIntl } from 'react-intl';
import type { DistributionFileDto, ListDistributionFilesSort, OsType } from '../../../api/generated/model';
import { ListColumn, ListTable, ScreenTableProps } from '../../../components/admin-list/ListTable';
import { deleteAction } from '../../../components/admin-list/RowAction';
import { formatAdminBytes } from '../../../i18n/format';
import { shortHash } from './file-display';

const OS_ICONS: Record<OsType, typeof IconBrandWindows> = {
  windows: IconBrandWindows,
  linux: IconBrandUbuntu,
  macos: IconBrandApple,
};
const OS_COLORS: Record<OsType, string> = { windows: 'blue', linux: 'orange', macos: 'gray' };

const nowrap = { style: { whiteSpace: 'nowrap' }, fz: 'sm' } as const;

/** File and hash, version, platform, size, downloads, created: every column sorts. */
const columns = (intl: IntlShape): Array<ListColumn<DistributionFileDto, ListDistributionFilesSort>> => [
  {
    sort: 'file_name',
    label: 'admin.files.columns.file',
    td: { maw: 320 },
    cell: (file) => (
      <>
        <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="file-name">
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
      </>
    ),
  },
  {
    sort: 'version',
    label: 'admin.files.columns.version',
    cell: (file) => (
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
    ),
  },
  {
    sort: 'os_type',
    label: 'admin.files.columns.platform',
    cell: (file) => {
      const Icon = OS_ICONS[file.os_type];
      return (
        <Group gap={8} wrap="nowrap">
          <ThemeIcon variant="light" color={OS_COLORS[file.os_type]} size={28} radius="md" aria-hidden>
            <Icon size={16} />
          </ThemeIcon>
          <Stack gap={0}>
            <Text fz="sm" data-testid="file-os">
              {intl.formatMessage({ id: `admin.files.os.${file.os_type}` })}
            </Text>
            <Text fz="xs" c="dimmed" data-testid="file-arch">
              {file.architecture}
            </Text>
          </Stack>
        </Group>
      );
    },
  },
  {
    sort: 'file_size',
    label: 'admin.files.columns.size',
    td: nowrap,
    testId: 'file-size',
    cell: (file) => formatAdminBytes(file.file_size, intl.locale),
  },
  {
    sort: 'download_count',
    label: 'admin.files.columns.downloads',
    td: { fz: 'sm' },
    testId: 'file-downloads',
    cell: (file) => <FormattedNumber value={file.download_count} />,
  },
  {
    sort: 'created_at',
    label: 'admin.files.columns.created',
    td: nowrap,
    cell: (file) => <FormattedDate value={file.created_at} dateStyle="medium" />,
  },
];

type FilesTableProps = ScreenTableProps<DistributionFileDto, ListDistributionFilesSort, 'onDelete'>;

/** The File Management table: file and hash, version, platform, size, downloads, created, delete. */
export function FilesTable({ rows, sorting, onDelete, busyId }: FilesTableProps) {
  const intl = useIntl();
  return (
    <ListTable
      rows={rows}
      rowProps={(file) => ({ 'data-testid': `file-row-${file.id}` })}
      columns={columns(intl)}
      sorting={sorting}
      testId="files-table"
      actions={{
        name: (file) => file.file_name,
        items: (file) => [
          deleteAction(intl, {
            loading: busyId === file.id,
            label: intl.formatMessage({ id: 'admin.files.actions.delete' }, { name: file.file_name }),
            onClick: () => onDelete(file),
          }),
        ],
      }}
    />
  );
}
