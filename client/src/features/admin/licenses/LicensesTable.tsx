import { Badge, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconBan, IconCopy, IconPlayerPlay } from '@tabler/icons-react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { AdminLicenseDto, ListAdminLicensesSort } from '../../../api/generated/model';
import { ListTable } from '../../../components/admin-list/ListFrame';
import { DeleteAction, RowAction, RowActions } from '../../../components/admin-list/RowAction';
import type { TableSorting } from '../../../components/admin-list/use-server-list';
import { expiresSoon } from '../../../lib/license-expiry';
import { activationColor, ADMIN_WARNING_DAYS, activationPercent, isSynced, STATUS_COLORS, statusAction } from './license-display';

export interface LicenseActions {
  onRevoke: (license: AdminLicenseDto) => void;
  onActivate: (license: AdminLicenseDto) => void;
  onCopy: (license: AdminLicenseDto) => void;
  onDelete: (license: AdminLicenseDto) => void;
}

interface LicensesTableProps extends LicenseActions {
  licenses: AdminLicenseDto[];
  sorting: TableSorting<ListAdminLicensesSort>;
  /** The license whose action is under way: its buttons wait. */
  busyId: number | null;
}

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

/** The License Management table: key, product and user, status, activations, dates, sync state and actions. */
export function LicensesTable({ licenses, sorting, busyId, onRevoke, onActivate, onCopy, onDelete }: LicensesTableProps) {
  const intl = useIntl();
  return (
    <ListTable
      columns={[
        { sort: 'license_key', label: 'adminLicenses.columns.key' },
        'adminLicenses.columns.productUser',
        'adminLicenses.columns.status',
        'adminLicenses.columns.activations',
        { sort: 'expires_at', label: 'adminLicenses.columns.expires' },
        { sort: 'created_at', label: 'adminLicenses.columns.created' },
        'adminLicenses.columns.sync',
        'adminLicenses.columns.actions',
      ]}
      sorting={sorting}
      minWidth={980}
      testId="licenses-table"
    >
      {licenses.map((license) => {
        const key = license.license_key;
        const busy = busyId === license.id;
        const action = statusAction(license.status);
        return (
          <Table.Tr key={license.id} data-testid={`license-row-${key}`}>
            <Table.Td>
              <Text ff="monospace" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                {key}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text fz="sm" fw={600}>
                {license.product_name}
              </Text>
              <Text fz="xs" c="dimmed">
                {license.user_email}
              </Text>
              {license.is_trial && (
                <Badge size="xs" variant="light" color="blue" mt={4}>
                  <FormattedMessage id="adminLicenses.trial" />
                </Badge>
              )}
            </Table.Td>
            <Table.Td>
              <Stack gap={4} align="flex-start">
                <Badge color={STATUS_COLORS[license.status]} variant="dot" w="max-content" data-testid="license-status">
                  <FormattedMessage id={`adminLicenses.status.${license.status}`} />
                </Badge>
                {expiresSoon(license, ADMIN_WARNING_DAYS) && (
                  <Text fz="xs" c="red.9" fw={600}>
                    <FormattedMessage id="adminLicenses.expiresSoon" />
                  </Text>
                )}
              </Stack>
            </Table.Td>
            <Table.Td>
              <Activations license={license} />
            </Table.Td>
            <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
              <FormattedDate value={license.expires_at} dateStyle="medium" />
            </Table.Td>
            <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
              <FormattedDate value={license.created_at} dateStyle="medium" />
            </Table.Td>
            <Table.Td>
              {isSynced(license) ? (
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
              )}
            </Table.Td>
            <Table.Td>
              <RowActions>
                {action === 'activate' ? (
                  <RowAction
                    icon={IconPlayerPlay}
                    color="green"
                    loading={busy}
                    tooltip={intl.formatMessage({ id: 'adminLicenses.actions.activateShort' })}
                    label={intl.formatMessage({ id: 'adminLicenses.actions.activate' }, { key })}
                    onClick={() => onActivate(license)}
                  />
                ) : (
                  <RowAction
                    icon={IconBan}
                    color="orange"
                    loading={busy}
                    tooltip={intl.formatMessage({ id: 'adminLicenses.actions.revokeShort' })}
                    label={intl.formatMessage({ id: 'adminLicenses.actions.revoke' }, { key })}
                    onClick={() => onRevoke(license)}
                  />
                )}
                <RowAction
                  icon={IconCopy}
                  tooltip={intl.formatMessage({ id: 'adminLicenses.actions.copyShort' })}
                  label={intl.formatMessage({ id: 'adminLicenses.actions.copy' }, { key })}
                  onClick={() => onCopy(license)}
                />
                <DeleteAction
                  disabled={busy}
                  label={intl.formatMessage({ id: 'adminLicenses.actions.delete' }, { key })}
                  onClick={() => onDelete(license)}
                />
              </RowActions>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
