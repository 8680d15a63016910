import { Badge, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconBan, IconCopy, IconGitBranch, IconPlayerPlay, IconServer } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, IntlShape, useIntl } from 'react-intl';
import type { AdminLicenseDto, ListAdminLicensesSort } from '../../../api/generated/model';
import { ListColumn, ListTable, ScreenTableProps } from '../../../components/admin-list/ListTable';
import { deleteAction } from '../../../components/admin-list/RowAction';
import { WrapEmails } from '../../../components/WrapEmails';
import { expiresSoon } from '../../../lib/license-expiry';
import { activationColor, ADMIN_WARNING_DAYS, activationPercent, isSynced, STATUS_COLORS, statusAction } from './license-display';
import { MessageText } from '../../../components/Message';

type LicenseActions = Record<
  'onRevoke' | 'onActivate' | 'onAccess' | 'onDevices' | 'onCopy' | 'onDelete',
  (license: AdminLicenseDto) => void
>;

function Activations({ license }: { license: AdminLicenseDto }) {
  const intl = useIntl();
  const percent = activationPercent(license.current_activations, license.max_activations);
  const values = { current: license.current_activations, max: license.max_activations };
  return (
    <Stack gap={4} miw={90}>
      <Text fz="sm" data-testid="license-activations">
        <FormattedMessage id="adminLicenses.activations.count" values={values} />
      </Text>
      <Progress
        value={percent}
        color={activationColor(percent)}
        size="sm"
        aria-label={intl.formatMessage({ id: 'adminLicenses.activations.label' }, values)}
      />
    </Stack>
  );
}

function SyncState({ license }: { license: AdminLicenseDto }) {
  const intl = useIntl();
  return isSynced(license) ? (
    <Tooltip
      label={intl.formatMessage(
        { id: 'adminLicenses.sync.syncedAt' },
        { time: intl.formatDate(license.synced_at!, { dateStyle: 'medium', timeStyle: 'short' }) },
      )}
    >
      <Badge color="green" variant="dot" w="max-content" tabIndex={0}>
        <FormattedMessage id="adminLicenses.sync.synced" />
      </Badge>
    </Tooltip>
  ) : (
    <Badge color="yellow" variant="dot" w="max-content">
      <FormattedMessage id="adminLicenses.sync.pending" />
    </Badge>
  );
}

const nowrap = { style: { whiteSpace: 'nowrap' }, fz: 'sm' } as const;

/** Key, product and user, status, activations, expiry and creation, sync state; the secondary facts fold on a narrow screen. */
const COLUMNS: Array<ListColumn<AdminLicenseDto, ListAdminLicensesSort>> = [
  {
    sort: 'license_key',
    label: 'adminLicenses.columns.key',
    cell: (license, { narrow }) => (
      <Text ff="monospace" fz="xs" style={{ whiteSpace: narrow ? undefined : 'nowrap' }}>
        {license.license_key}
      </Text>
    ),
  },
  {
    label: 'adminLicenses.columns.productUser',
    fold: 3,
    cell: (license) => (
      <>
        <Text fz="sm" fw={600}>
          {license.product_name}
        </Text>
        <Text fz="xs" c="dimmed">
          <WrapEmails text={license.user_email} />
        </Text>
        <Group gap={4} mt={4}>
          {license.is_trial && (
            <Badge size="xs" variant="light" color="blue">
              <FormattedMessage id="adminLicenses.trial" />
            </Badge>
          )}
          {license.channel !== 'stable' && (
            <Badge size="xs" variant="light" color="grape" data-testid="license-channel">
              <FormattedMessage id={`admin.versions.channel.${license.channel}`} />
            </Badge>
          )}
        </Group>
      </>
    ),
  },
  {
    label: 'adminLicenses.columns.status',
    fold: 4,
    cell: (license) => (
      <Stack gap={4} align="flex-start">
        <Badge color={STATUS_COLORS[license.status]} variant="dot" w="max-content" data-testid="license-status">
          <FormattedMessage id={`adminLicenses.status.${license.status}`} />
        </Badge>
        {expiresSoon(license, ADMIN_WARNING_DAYS) && <MessageText fz="xs" c="red.9" fw={600} message="adminLicenses.expiresSoon" />}
      </Stack>
    ),
  },
  { label: 'adminLicenses.columns.activations', fold: 2, cell: (license) => <Activations license={license} /> },
  {
    sort: 'expires_at',
    label: 'adminLicenses.columns.expires',
    td: nowrap,
    cell: (license) => (
      <>
        <FormattedDate value={license.expires_at} dateStyle="medium" />
        {license.updates_until && (
          <Text fz="xs" c="dimmed" data-testid="license-updates-until">
            <FormattedMessage
              id="adminLicenses.updatesUntil"
              values={{ date: <FormattedDate value={license.updates_until} dateStyle="medium" /> }}
            />
          </Text>
        )}
      </>
    ),
  },
  {
    sort: 'created_at',
    label: 'adminLicenses.columns.created',
    td: nowrap,
    cell: (license) => <FormattedDate value={license.created_at} dateStyle="medium" />,
  },
  { label: 'adminLicenses.columns.sync', fold: 1, cell: (license) => <SyncState license={license} /> },
];

/** Activate (when revoked) or Revoke, Release access, Devices, Copy key, Delete. */
function licenseActions(intl: IntlShape, license: AdminLicenseDto, busy: boolean, actions: LicenseActions) {
  const key = { key: license.license_key };
  const activate = statusAction(license.status) === 'activate';
  return [
    {
      icon: activate ? IconPlayerPlay : IconBan,
      color: activate ? 'green' : 'orange',
      loading: busy,
      tooltip: intl.formatMessage({ id: activate ? 'adminLicenses.actions.activateShort' : 'adminLicenses.actions.revokeShort' }),
      label: intl.formatMessage({ id: activate ? 'adminLicenses.actions.activate' : 'adminLicenses.actions.revoke' }, key),
      onClick: () => (activate ? actions.onActivate(license) : actions.onRevoke(license)),
    },
    {
      icon: IconGitBranch,
      tooltip: intl.formatMessage({ id: 'adminLicenses.actions.accessShort' }),
      label: intl.formatMessage({ id: 'adminLicenses.actions.access' }, key),
      onClick: () => actions.onAccess(license),
    },
    {
      icon: IconServer,
      tooltip: intl.formatMessage({ id: 'adminLicenses.actions.devicesShort' }),
      label: intl.formatMessage({ id: 'adminLicenses.actions.devices' }, key),
      onClick: () => actions.onDevices(license),
    },
    {
      icon: IconCopy,
      tooltip: intl.formatMessage({ id: 'adminLicenses.actions.copyShort' }),
      label: intl.formatMessage({ id: 'adminLicenses.actions.copy' }, key),
      onClick: () => actions.onCopy(license),
    },
    deleteAction(intl, {
      disabled: busy,
      label: intl.formatMessage({ id: 'adminLicenses.actions.delete' }, key),
      onClick: () => actions.onDelete(license),
    }),
  ];
}

type LicensesTableProps = ScreenTableProps<AdminLicenseDto, ListAdminLicensesSort, keyof LicenseActions>;

/** The License Management table: key, product and user, status, activations, dates, sync state and actions. */
export function LicensesTable({ rows, sorting, busyId, ...actions }: LicensesTableProps) {
  const intl = useIntl();
  return (
    <ListTable
      rows={rows}
      rowProps={(license) => ({ 'data-testid': `license-row-${license.license_key}` })}
      columns={COLUMNS}
      sorting={sorting}
      testId="licenses-table"
      actions={{
        name: (license) => license.license_key,
        items: (license) => licenseActions(intl, license, busyId === license.id, actions),
      }}
    />
  );
}
