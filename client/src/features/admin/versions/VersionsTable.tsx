import { Anchor, Badge, Button, Group, Spoiler, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconCloudUpload, IconExternalLink, IconPencil, IconRocket, IconSend } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, IntlShape, useIntl } from 'react-intl';
import type { AdminVersionDto, ListAdminVersionsSort } from '../../../api/generated/model';
import { ListColumn, ListTable, ScreenTableProps } from '../../../components/admin-list/ListTable';
import { deleteAction } from '../../../components/admin-list/RowAction';
import { WARNING_TEXT } from '../../../components/license-server/sync-display';
import { CHANNEL_COLORS, shortKey, STATE_COLORS, SYNC_COLORS } from './version-display';
import { formatAdminBytes } from '../../../i18n/format';
import { MessageText } from '../../../components/Message';
import { Changelog } from '../../../components/Changelog';

type VersionActions = Record<
  'onToggleStable' | 'onMakeLatest' | 'onEdit' | 'onDelete' | 'onSync' | 'onPublish' | 'onYank' | 'onRollout',
  (version: AdminVersionDto) => void
>;

function KeyLine({ label, value }: { label: string; value: string | null }) {
  const short = shortKey(value);
  return (
    <Text fz="xs" style={{ whiteSpace: 'nowrap' }}>
      <Text span fw={600} fz="xs">
        {label}:
      </Text>{' '}
      {short ? (
        <Text span ff="monospace" fz="xs">
          {short}…
        </Text>
      ) : (
        <MessageText span c="dimmed" fz="xs" message="admin.versions.keys.notSet" />
      )}
    </Text>
  );
}

/** The Stable/Beta and Latest/Older toggles. */
function Flags({ version, busy, onToggleStable, onMakeLatest }: { version: AdminVersionDto; busy: boolean } & VersionActions) {
  const intl = useIntl();
  const values = { version: version.version };
  return (
    <Stack gap={6} align="flex-start">
      <Tooltip
        label={intl.formatMessage({
          id: version.is_stable ? 'admin.versions.flags.toBetaHint' : 'admin.versions.flags.toStableHint',
        })}
      >
        <Button
          size="compact-xs"
          variant="light"
          color={version.is_stable ? 'teal' : 'yellow'}
          c={version.is_stable ? undefined : WARNING_TEXT}
          loading={busy}
          aria-label={intl.formatMessage(
            { id: version.is_stable ? 'admin.versions.flags.toBeta' : 'admin.versions.flags.toStable' },
            values,
          )}
          onClick={() => onToggleStable(version)}
          data-testid="version-stable"
        >
          <FormattedMessage id={version.is_stable ? 'admin.versions.flags.stable' : 'admin.versions.flags.beta'} />
        </Button>
      </Tooltip>
      {version.is_latest ? (
        // Exactly one version is the latest: it changes by marking another one, never by un-marking this.
        <Tooltip label={intl.formatMessage({ id: 'admin.versions.flags.latestHint' })} multiline w={240}>
          <Button
            size="compact-xs"
            variant="light"
            color="violet"
            aria-disabled
            aria-label={intl.formatMessage({ id: 'admin.versions.flags.isLatest' }, values)}
            onClick={(event) => event.preventDefault()}
            style={{ cursor: 'default' }}
            data-testid="version-latest"
          >
            <FormattedMessage id="admin.versions.flags.latest" />
          </Button>
        </Tooltip>
      ) : (
        <Tooltip label={intl.formatMessage({ id: 'admin.versions.flags.toLatestHint' })}>
          <Button
            size="compact-xs"
            variant="light"
            color="gray"
            loading={busy}
            // Only a published version can be the latest (the server refuses a draft or yanked one).
            disabled={version.state !== 'published'}
            aria-label={intl.formatMessage({ id: 'admin.versions.flags.toLatest' }, values)}
            onClick={() => onMakeLatest(version)}
            data-testid="version-latest"
          >
            <FormattedMessage id="admin.versions.flags.older" />
          </Button>
        </Tooltip>
      )}
    </Stack>
  );
}

function SyncState({ version }: { version: AdminVersionDto }) {
  const intl = useIntl();
  return version.sync_status === 'synced' && version.last_sync_at ? (
    <Tooltip
      label={intl.formatMessage(
        { id: 'admin.versions.sync.syncedAt' },
        { time: intl.formatDate(version.last_sync_at, { dateStyle: 'medium', timeStyle: 'short' }) },
      )}
    >
      <Badge color={SYNC_COLORS.synced} variant="dot" w="max-content" tabIndex={0} data-testid="version-sync">
        <FormattedMessage id="admin.versions.sync.status.synced" />
      </Badge>
    </Tooltip>
  ) : (
    <Badge color={SYNC_COLORS[version.sync_status]} variant="dot" w="max-content" data-testid="version-sync">
      <FormattedMessage id={`admin.versions.sync.status.${version.sync_status}`} />
    </Badge>
  );
}

/**
 * Version, release date, flags, changelog, file, keys and sync state; the secondary facts (keys, file, changelog,
 * sync, flags) fold under the version on a narrow screen.
 */
const columns = (
  intl: IntlShape,
  busyId: number | null | undefined,
  actions: VersionActions,
): Array<ListColumn<AdminVersionDto, ListAdminVersionsSort>> => [
  {
    sort: 'version',
    label: 'admin.versions.columns.version',
    cell: (version) => (
      <>
        <Text fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
          {version.version}
        </Text>
        <Text fz="xs" c="dimmed">
          <FormattedMessage id="admin.versions.added" values={{ date: intl.formatDate(version.created_at, { dateStyle: 'medium' }) }} />
        </Text>
      </>
    ),
  },
  {
    sort: 'release_date',
    label: 'admin.versions.columns.releaseDate',
    td: { fz: 'sm', style: { whiteSpace: 'nowrap' } },
    testId: 'version-release-date',
    // A calendar date: formatted in UTC so it never shifts by a day.
    cell: (version) => <FormattedDate value={`${version.release_date}T00:00:00Z`} dateStyle="medium" timeZone="UTC" />,
  },
  {
    label: 'admin.versions.columns.release',
    // Folds last: on a phone the channel, state and rollout stay in sight under the version instead of off to the side.
    fold: 6,
    testId: 'version-release',
    cell: (version) => (
      <Stack gap={4} align="flex-start">
        <Badge
          color={CHANNEL_COLORS[version.channel]}
          // Yellow and orange text on their light tint is too faint to read (WCAG AA): the darker warning text instead.
          c={version.channel === 'beta' || version.channel === 'alpha' ? WARNING_TEXT : undefined}
          variant="light"
          data-testid="version-channel"
        >
          <FormattedMessage id={`admin.versions.channel.${version.channel}`} />
        </Badge>
        <Badge color={STATE_COLORS[version.state]} variant="dot" data-testid="version-state">
          <FormattedMessage id={`admin.versions.state.${version.state}`} />
        </Badge>
        {(version.rollout_paused || version.rollout_percent < 100) && (
          <Badge
            color={version.rollout_paused ? 'gray' : 'orange'}
            c={version.rollout_paused ? undefined : WARNING_TEXT}
            variant="outline"
            data-testid="version-rollout"
          >
            {version.rollout_paused ? (
              <FormattedMessage id="admin.versions.rollout.badgePaused" />
            ) : (
              <FormattedMessage id="admin.versions.rollout.badge" values={{ percent: version.rollout_percent }} />
            )}
          </Badge>
        )}
      </Stack>
    ),
  },
  {
    label: 'admin.versions.columns.flags',
    fold: 5,
    cell: (version) => <Flags version={version} busy={busyId === version.id} {...actions} />,
  },
  {
    label: 'admin.versions.columns.changelog',
    fold: 3,
    td: { maw: 260, miw: 160 },
    cell: (version) => (
      <>
        {version.changelog ? (
          // Rendered as on the customers' dashboard; a long one folds to a few lines.
          <Spoiler
            maxHeight={96}
            showLabel={intl.formatMessage({ id: 'admin.versions.changelogMore' })}
            hideLabel={intl.formatMessage({ id: 'admin.versions.changelogLess' })}
            fz="xs"
          >
            <Changelog text={version.changelog} testId="version-changelog" />
          </Spoiler>
        ) : (
          <MessageText fz="sm" c="dimmed" data-testid="version-changelog" message="admin.versions.noChangelog" />
        )}
        {version.download_url && (
          <Anchor
            href={version.download_url}
            target="_blank"
            rel="noopener noreferrer"
            fz="xs"
            aria-label={intl.formatMessage({ id: 'admin.versions.downloadLinkFor' }, { version: version.version })}
          >
            <Group gap={4} wrap="nowrap" component="span">
              <IconExternalLink size={12} aria-hidden />
              <FormattedMessage id="admin.versions.downloadLink" />
            </Group>
          </Anchor>
        )}
      </>
    ),
  },
  {
    label: 'admin.versions.columns.file',
    fold: 2,
    testId: 'version-file',
    cell: (version) =>
      version.file_size !== null && version.file_hash ? (
        <Stack gap={0}>
          {version.file_name && (
            <Text fz="xs" fw={600} maw={200} truncate="end" title={version.file_name}>
              {version.file_name}
            </Text>
          )}
          <Text fz="xs" style={{ whiteSpace: 'nowrap' }}>
            {formatAdminBytes(version.file_size, intl.locale)}
          </Text>
          <Text fz="xs" ff="monospace" c="dimmed" title={version.file_hash}>
            {shortKey(version.file_hash)}…
          </Text>
        </Stack>
      ) : (
        <MessageText fz="xs" c="dimmed" message="admin.versions.noFile" />
      ),
  },
  {
    label: 'admin.versions.columns.keys',
    fold: 1,
    testId: 'version-keys',
    cell: (version) => (
      <>
        <KeyLine label={intl.formatMessage({ id: 'admin.versions.keys.secret' })} value={version.secret_hash} />
        <KeyLine label={intl.formatMessage({ id: 'admin.versions.keys.encrypt' })} value={version.encryption_key} />
      </>
    ),
  },
  { label: 'admin.versions.columns.sync', fold: 4, cell: (version) => <SyncState version={version} /> },
];

type VersionsTableProps = ScreenTableProps<AdminVersionDto, ListAdminVersionsSort, keyof VersionActions>;

/** The Version Management table: version, release date, flags, changelog, file, keys, sync state and actions. */
export function VersionsTable({ rows, sorting, busyId, ...actions }: VersionsTableProps) {
  const intl = useIntl();
  return (
    <ListTable
      rows={rows}
      rowProps={(version) => ({ 'data-testid': `version-row-${version.version}` })}
      columns={columns(intl, busyId, actions)}
      sorting={sorting}
      testId="versions-table"
      actions={{
        name: (version) => version.version,
        items: (version) => {
          const busy = busyId === version.id;
          const values = { version: version.version };
          return [
            {
              icon: IconPencil,
              disabled: busy,
              tooltip: intl.formatMessage({ id: 'common.edit' }),
              label: intl.formatMessage({ id: 'admin.versions.actions.edit' }, values),
              onClick: () => actions.onEdit(version),
            },
            version.state !== 'published' && {
              icon: IconSend,
              disabled: busy,
              tooltip: intl.formatMessage({ id: 'admin.versions.actions.publishHint' }),
              label: intl.formatMessage({ id: 'admin.versions.actions.publish' }, values),
              onClick: () => actions.onPublish(version),
            },
            version.state === 'published' && {
              icon: IconArrowBackUp,
              disabled: busy,
              tooltip: intl.formatMessage({ id: 'admin.versions.actions.yankHint' }),
              label: intl.formatMessage({ id: 'admin.versions.actions.yank' }, values),
              onClick: () => actions.onYank(version),
            },
            {
              icon: IconRocket,
              disabled: busy,
              tooltip: intl.formatMessage({ id: 'admin.versions.actions.rolloutHint' }),
              label: intl.formatMessage({ id: 'admin.versions.actions.rollout' }, values),
              onClick: () => actions.onRollout(version),
            },
            version.sync_status !== 'synced' && {
              icon: IconCloudUpload,
              disabled: busy,
              tooltip: intl.formatMessage({ id: 'admin.versions.sync.one' }),
              label: intl.formatMessage({ id: 'admin.versions.actions.sync' }, values),
              onClick: () => actions.onSync(version),
            },
            deleteAction(intl, {
              disabled: busy,
              label: intl.formatMessage({ id: 'admin.versions.actions.delete' }, values),
              onClick: () => actions.onDelete(version),
            }),
          ];
        },
      }}
    />
  );
}
