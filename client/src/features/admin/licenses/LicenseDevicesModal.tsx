import { Badge, Code, Modal, Stack, Table, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useListLicenseDevices } from '../../../api/generated/endpoints/devices/devices';
import type { AdminDeviceDto, AdminLicenseDto } from '../../../api/generated/model';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** What a device is called: its owner's name for it, its server's, its host, or none. */
const nameOf = (device: AdminDeviceDto) => device.custom_name ?? device.device_name ?? device.hostname;

/** The servers that activated one license: what each is called, runs and reports, and whether it holds a seat. */
export function LicenseDevicesModal({ license, onClose }: { license: AdminLicenseDto; onClose: () => void }) {
  const intl = useIntl();
  const devices = useListLicenseDevices(license.license_key);
  const found = devices.data?.data;
  const when = (value: string | null) => (value ? intl.formatDate(value, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={intl.formatMessage({ id: 'adminLicenses.devices.title' }, { key: license.license_key })}
      closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}
      styles={{ title: { fontSize: 'var(--mantine-font-size-lg)', fontWeight: 700 } }}
    >
      <Stack gap="sm">
        {devices.error && (
          <ErrorAlert>{intl.formatMessage({ id: 'adminLicenses.errors.devices' }, { message: devices.error.message })}</ErrorAlert>
        )}
        {found && (
          <Text fz="sm" data-testid="license-devices-seats">
            <FormattedMessage
              id="adminLicenses.devices.seats"
              values={{ current: found.current_activations, max: found.max_activations }}
            />
          </Text>
        )}
        {found && found.devices.length === 0 && (
          <Text fz="sm" c="dimmed">
            <FormattedMessage id="adminLicenses.devices.none" />
          </Text>
        )}
        {found && found.devices.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" fz="sm" data-testid="license-devices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <FormattedMessage id="adminLicenses.devices.server" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="adminLicenses.devices.version" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="adminLicenses.devices.platform" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="adminLicenses.devices.lastActive" />
                  </Table.Th>
                  <Table.Th>
                    <FormattedMessage id="adminLicenses.devices.status" />
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {found.devices.map((device) => (
                  <Table.Tr key={device.id} data-testid={`license-device-${device.server_uid}`}>
                    <Table.Td>
                      <Text fz="sm" fw={600}>
                        {nameOf(device) ?? <FormattedMessage id="adminLicenses.devices.unnamed" />}
                      </Text>
                      <Code fz="xs">{device.server_uid}</Code>
                    </Table.Td>
                    <Table.Td data-testid="license-device-version">{device.version ?? '—'}</Table.Td>
                    <Table.Td data-testid="license-device-platform">
                      {device.os ? (
                        <>
                          <FormattedMessage id={`dashboard.downloads.os.${device.os}`} />
                          {device.arch && (
                            <>
                              {' · '}
                              <FormattedMessage id={`dashboard.downloads.arch.${device.arch}`} />
                            </>
                          )}
                        </>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(device.last_activity_at)}</Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={device.deactivated_at ? 'gray' : device.is_active ? 'green' : 'orange'}>
                        <FormattedMessage
                          id={
                            device.deactivated_at
                              ? 'adminLicenses.devices.deactivated'
                              : device.is_active
                                ? 'adminLicenses.devices.active'
                                : 'adminLicenses.devices.silent'
                          }
                        />
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  );
}
