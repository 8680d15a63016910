import { Badge, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconDeviceDesktopOff, IconPencil, IconPlugConnectedX, IconServer2 } from '@tabler/icons-react';
import { ReactNode, useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { getListMyDevicesQueryOptions, useDeactivateMyDevice } from '../../api/generated/endpoints/devices/devices';
import { getListMyLicensesQueryKey } from '../../api/generated/endpoints/licenses/licenses';
import type { DeviceDto } from '../../api/generated/model';
import type { ListSpec, NoFilters } from '../../components/admin-list/list-state';
import { EmptyState, ListPager } from '../../components/admin-list/ListFrame';
import { useServerList } from '../../components/admin-list/use-server-list';
import { confirmAction } from '../../components/confirm-action';
import { SuccessAlert } from '../../components/SuccessAlert';
import { useFlash } from '../../components/use-flash';
import { localizeServerMessage } from '../../lib/server-messages';
import { DashboardSection, listRows } from './DashboardSection';
import { deviceStatusColor, myListParams } from './license-display';
import { MessageText } from '../../components/Message';
import { RenameDeviceModal } from './RenameDeviceModal';

/** My Devices: 20 a page, newest first; the page is in the URL as devices_page. */
export const MY_DEVICES: ListSpec<NoFilters, 'created_at'> = {
  defaults: { search: '', page: 1, limit: 20, sort: 'created_at', order: 'desc' },
  sorts: ['created_at'],
  prefix: 'devices_',
};
const SUCCESS_MS = 4000;

function When({ value }: { value: string | null }) {
  if (!value) return <FormattedMessage id="devices.never" />;
  return (
    <>
      <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
    </>
  );
}

function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** My Devices: the servers that activated the client's licenses; a device can give its seat back. */
export function MyDevices({ onError }: { onError: (message: string) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [success, showSuccess] = useFlash(SUCCESS_MS);
  const list = useServerList(MY_DEVICES, (state) => getListMyDevicesQueryOptions(myListParams(state)));
  const devices = list.result.data?.data ?? [];

  const deactivate = useDeactivateMyDevice({
    mutation: {
      onSuccess: async () => {
        showSuccess(intl.formatMessage({ id: 'devices.messages.deactivated' }));
        await Promise.all([list.refresh(), queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) })]);
      },
      onError: (error) =>
        onError(intl.formatMessage({ id: 'devices.errors.deactivate' }, { message: localizeServerMessage(intl, error.message) })),
    },
  });

  // The owner's name, else its server's, else the host it reported: 'Unknown Device' only when there is none.
  const name = (device: DeviceDto) =>
    device.custom_name || device.device_name || device.hostname || intl.formatMessage({ id: 'devices.unknown' });
  const [renaming, setRenaming] = useState<DeviceDto | null>(null);
  const confirmDeactivate = (device: DeviceDto) =>
    confirmAction(intl, {
      title: 'devices.confirm.title',
      children: (
        <Text fz="sm">
          {intl.formatMessage({ id: 'devices.confirm.text' }, { name: name(device), serverId: device.server_uid, key: device.license_key })}
        </Text>
      ),
      confirm: 'devices.deactivate',
      onConfirm: () => deactivate.mutate({ id: device.id }),
    });

  return (
    <DashboardSection
      id="my-devices"
      icon={IconServer2}
      title="devices.title"
      notice={success && <SuccessAlert onClose={() => showSuccess(null)}>{success}</SuccessAlert>}
      rows={listRows(list.result, devices.length === 0)}
      empty={<EmptyState icon={IconDeviceDesktopOff} title="devices.empty" hint="devices.emptyHint" testId="devices-empty" />}
    >
      {renaming && (
        <RenameDeviceModal
          device={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={async () => {
            showSuccess(intl.formatMessage({ id: 'devices.messages.renamed' }));
            await list.refresh();
          }}
        />
      )}
      <Stack gap="sm" data-testid="devices-list">
        {devices.map((device) => (
          <Card key={device.id} withBorder radius="md" p="md" data-testid={`device-${device.server_uid}`}>
            <Group justify="space-between" align="flex-start" gap="xs" mb="xs">
              <Group gap="xs">
                <Title order={3} fz="md">
                  {name(device)}
                </Title>
                <Badge color={deviceStatusColor(device.status)} variant="light">
                  <FormattedMessage id={`devices.status.${device.status}`} />
                </Badge>
                {device.is_active && (
                  <Badge color="green" variant="dot">
                    <FormattedMessage id="devices.currentlyActive" />
                  </Badge>
                )}
              </Group>
              <Group gap={4}>
                <Button
                  size="xs"
                  variant="subtle"
                  leftSection={<IconPencil size={14} />}
                  aria-label={intl.formatMessage({ id: 'devices.renameAria' }, { name: name(device) })}
                  onClick={() => setRenaming(device)}
                >
                  <FormattedMessage id="devices.rename" />
                </Button>
                {device.deactivated_at === null && (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconPlugConnectedX size={14} />}
                    aria-label={intl.formatMessage({ id: 'devices.deactivateAria' }, { name: name(device) })}
                    loading={deactivate.isPending && deactivate.variables?.id === device.id}
                    onClick={() => confirmDeactivate(device)}
                  >
                    <FormattedMessage id="devices.deactivate" />
                  </Button>
                )}
              </Group>
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
              <Field label={<FormattedMessage id="licenses.fields.key" />}>
                <Code fz="xs">{device.license_key}</Code>
              </Field>
              <Field label={<FormattedMessage id="devices.fields.activated" />}>
                <When value={device.activated_at} />
              </Field>
              <Field label={<FormattedMessage id="devices.fields.lastActive" />}>
                <When value={device.last_activity_at} />
              </Field>
              <Field label={<FormattedMessage id="devices.fields.serverId" />}>
                <Code fz="xs" data-testid="device-server-id">
                  {device.server_uid}
                </Code>
              </Field>
              {device.os && (
                <Field label={<FormattedMessage id="devices.fields.platform" />}>
                  <Text fz="sm" data-testid="device-platform">
                    <FormattedMessage id={`dashboard.downloads.os.${device.os}`} />
                    {device.arch && (
                      <>
                        {' · '}
                        <FormattedMessage id={`dashboard.downloads.arch.${device.arch}`} />
                      </>
                    )}
                  </Text>
                </Field>
              )}
              {device.version && (
                <Field label={<FormattedMessage id="devices.fields.version" />}>
                  <Text fz="sm" data-testid="device-version">
                    {device.version}
                  </Text>
                  {/* Text, not a badge: a badge would cut a long version number. */}
                  {device.update_required ? (
                    <Text fz="xs" fw={600} c="red.9" data-testid="device-update">
                      <FormattedMessage id="devices.updateRequired" values={{ version: device.update_available ?? 'none' }} />
                    </Text>
                  ) : (
                    device.update_available && (
                      <Text fz="xs" fw={600} c="blue.9" data-testid="device-update">
                        <FormattedMessage id="devices.updateAvailable" values={{ version: device.update_available }} />
                      </Text>
                    )
                  )}
                </Field>
              )}
            </SimpleGrid>
            {device.deactivated_at && (
              <MessageText
                fz="xs"
                c="dimmed"
                mt="xs"
                message="devices.deactivatedAt"
                values={{ when: <When value={device.deactivated_at} /> }}
              />
            )}
          </Card>
        ))}
      </Stack>
      <ListPager meta={list.meta} onPage={list.setPage} summary="devices.showing" withEdges={false} singlePageSummary={false} />
    </DashboardSection>
  );
}
