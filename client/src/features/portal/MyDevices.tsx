import { Badge, Button, Card, Code, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { IconDeviceDesktopOff, IconPlugConnectedX, IconServer2 } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { getListMyDevicesQueryKey, useDeactivateMyDevice, useListMyDevices } from '../../api/generated/endpoints/devices/devices';
import { getListMyLicensesQueryKey } from '../../api/generated/endpoints/licenses/licenses';
import type { DeviceDto } from '../../api/generated/model';
import { SuccessAlert } from '../../components/SuccessAlert';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PagerBar } from '../../components/PagerBar';
import { pageRange } from '../../components/pagination';
import { useFlash } from '../../components/use-flash';
import { localizeServerMessage } from '../../lib/server-messages';
import { deviceStatusColor } from './license-display';

export const DEVICES_PAGE_SIZE = 20;
const SUCCESS_MS = 4000;

function When({ value }: { value: string | null }) {
  if (!value) return <FormattedMessage id="devices.never" />;
  return (
    <>
      <FormattedDate value={value} dateStyle="medium" /> <FormattedTime value={value} />
    </>
  );
}

function Field({ label, children }: { label: React.ReactNode; children: React.ReactNode }) {
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
  const [page, setPage] = useState(1);
  const [success, showSuccess] = useFlash(SUCCESS_MS);
  const list = useListMyDevices({ page, limit: DEVICES_PAGE_SIZE });
  const devices = list.data?.data ?? [];
  const meta = list.data?.meta;
  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? DEVICES_PAGE_SIZE, meta?.total ?? 0);

  const deactivate = useDeactivateMyDevice({
    mutation: {
      onSuccess: async () => {
        showSuccess(intl.formatMessage({ id: 'devices.messages.deactivated' }));
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: getListMyDevicesQueryKey().slice(0, 1) }),
          queryClient.invalidateQueries({ queryKey: getListMyLicensesQueryKey().slice(0, 1) }),
        ]);
      },
      onError: (error) =>
        onError(intl.formatMessage({ id: 'devices.errors.deactivate' }, { message: localizeServerMessage(intl, error.message) })),
    },
  });

  const name = (device: DeviceDto) => device.device_name || intl.formatMessage({ id: 'devices.unknown' });
  const confirmDeactivate = (device: DeviceDto) =>
    modals.openConfirmModal({
      title: intl.formatMessage({ id: 'devices.confirm.title' }),
      children: (
        <Text fz="sm">
          {intl.formatMessage({ id: 'devices.confirm.text' }, { name: name(device), serverId: device.server_uid, key: device.license_key })}
        </Text>
      ),
      labels: { confirm: intl.formatMessage({ id: 'devices.deactivate' }), cancel: intl.formatMessage({ id: 'common.cancel' }) },
      confirmProps: { color: 'red' },
      closeButtonProps: { 'aria-label': intl.formatMessage({ id: 'common.close' }) },
      onConfirm: () => deactivate.mutate({ id: device.id }),
    });

  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="my-devices-title">
      <Group gap="xs" mb="md">
        <IconServer2 size={22} color="var(--mantine-color-violet-6)" aria-hidden />
        <Title order={2} fz="xl" id="my-devices-title">
          <FormattedMessage id="devices.title" />
        </Title>
      </Group>
      {success && (
        <SuccessAlert mb="md" onClose={() => showSuccess(null)}>
          {success}
        </SuccessAlert>
      )}
      {list.isLoading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : list.error ? (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'dashboard.errors.load' }, { message: localizeServerMessage(intl, list.error.message) })}
        </ErrorAlert>
      ) : devices.length === 0 ? (
        <Stack gap={4} align="center" ta="center" p="md" data-testid="devices-empty">
          <IconDeviceDesktopOff size={36} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text fw={600}>
            <FormattedMessage id="devices.empty" />
          </Text>
          <Text fz="sm" c="dimmed">
            <FormattedMessage id="devices.emptyHint" />
          </Text>
        </Stack>
      ) : (
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
              </SimpleGrid>
              {device.deactivated_at && (
                <Text fz="xs" c="dimmed" mt="xs">
                  <FormattedMessage id="devices.deactivatedAt" values={{ when: <When value={device.deactivated_at} /> }} />
                </Text>
              )}
            </Card>
          ))}
        </Stack>
      )}
      {meta && (
        <PagerBar
          page={meta.page}
          pages={meta.pages}
          onPage={setPage}
          withEdges={false}
          summary={<FormattedMessage id="devices.showing" values={{ from, to, total: meta.total }} />}
        />
      )}
    </Card>
  );
}
