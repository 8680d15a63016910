import { Badge, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCopy, IconDownload, IconKey, IconKeyOff } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { downloadLicenseFile, getListMyLicensesQueryOptions } from '../../api/generated/endpoints/licenses/licenses';
import type { LicenseDto } from '../../api/generated/model';
import type { ListSpec, NoFilters } from '../../components/admin-list/list-state';
import { EmptyState, ListPager } from '../../components/admin-list/ListFrame';
import { useServerList } from '../../components/admin-list/use-server-list';
import { copyText, saveFile } from '../../lib/browser-actions';
import { expiresSoon } from '../../lib/license-expiry';
import { localizeServerMessage } from '../../lib/server-messages';
import { DashboardSection, listRows } from './DashboardSection';
import { CLIENT_WARNING_DAYS, licenseStatusColor, myListParams, readyToActivate } from './license-display';
import { MessageText } from '../../components/Message';

/** My Licenses: 20 a page, newest first; the page is in the URL as licenses_page (the test-script command offers the first page's keys). */
export const MY_LICENSES: ListSpec<NoFilters, 'created_at'> = {
  defaults: { search: '', page: 1, limit: 20, sort: 'created_at', order: 'desc' },
  sorts: ['created_at'],
  prefix: 'licenses_',
};
export const LICENSE_FILE_NAME = 'license.key';

interface MyLicensesProps {
  onDownloaded: () => void;
  onError: (message: string) => void;
}

function LicenseCard({ license, onDownloaded, onError }: { license: LicenseDto } & MyLicensesProps) {
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  const download = useMutation({
    mutationFn: () => downloadLicenseFile(license.id, { headers: { Accept: 'text/plain' } }),
    onSuccess: (text) => {
      saveFile(text, LICENSE_FILE_NAME);
      onDownloaded();
    },
    onError: (error) =>
      onError(intl.formatMessage({ id: 'licenses.errors.download' }, { message: localizeServerMessage(intl, error.message) })),
  });
  const copyKey = async () => {
    try {
      await copyText(license.license_key);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      onError(intl.formatMessage({ id: 'licenses.errors.copy' }, { message: (error as Error).message }));
    }
  };
  const soon = expiresSoon(license, CLIENT_WARNING_DAYS);
  const ready = readyToActivate(license);

  return (
    <Card withBorder radius="md" p="md" data-testid={`license-${license.license_key}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} fz="md">
            {license.product_name}
          </Title>
          <Badge color={licenseStatusColor(license.status)} variant="light" style={{ flexShrink: 0 }}>
            <FormattedMessage id={`licenses.status.${license.status}`} />
          </Badge>
        </Group>
        {(license.is_trial || soon || license.channel !== 'stable') && (
          <Group gap={6}>
            {license.channel !== 'stable' && (
              <Badge color="grape" variant="light" data-testid="license-channel">
                <FormattedMessage
                  id="licenses.channel"
                  values={{ channel: intl.formatMessage({ id: `dashboard.downloads.channel.${license.channel}` }) }}
                />
              </Badge>
            )}
            {license.is_trial && (
              <Badge color="violet" variant="outline">
                <FormattedMessage id="licenses.trial" />
              </Badge>
            )}
            {soon && (
              <Badge color="yellow" variant="filled" autoContrast leftSection={<IconAlertTriangle size={12} aria-hidden />}>
                <FormattedMessage id="licenses.expiresSoon" />
              </Badge>
            )}
          </Group>
        )}
        <div>
          <MessageText fz="xs" c="dimmed" message="licenses.fields.key" />
          <Code block fz={{ base: 'xs', xs: 'sm' }} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="license-key">
            {license.license_key}
          </Code>
        </div>
        <SimpleGrid cols={2} spacing="xs">
          <div>
            <MessageText fz="xs" c="dimmed" message="licenses.fields.expires" />
            <Text fz="sm">
              <FormattedDate value={license.expires_at} dateStyle="medium" />
            </Text>
          </div>
          {license.updates_until && (
            <div>
              <MessageText fz="xs" c="dimmed" message="licenses.fields.updatesUntil" />
              <Text fz="sm" data-testid="license-updates-until">
                <FormattedDate value={license.updates_until} dateStyle="medium" />
              </Text>
            </div>
          )}
          <div>
            <MessageText fz="xs" c="dimmed" message="licenses.fields.devices" />
            <Text fz="sm" data-testid="license-devices">
              {license.current_activations}/{license.max_activations}
            </Text>
          </div>
        </SimpleGrid>
        {ready && (
          <Group gap={6} c="teal.9" fz="sm">
            <IconCircleCheck size={16} aria-hidden />
            <MessageText fz="sm" c="teal.9" fw={500} message="licenses.readyToActivate" />
          </Group>
        )}
        <Group gap="xs" mt="auto">
          <Button
            size="xs"
            variant="default"
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            color={copied ? 'teal' : undefined}
            onClick={copyKey}
          >
            <FormattedMessage id={copied ? 'licenses.copied' : 'licenses.copyKey'} />
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            <FormattedMessage id="licenses.download" />
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** My Licenses: every license of the signed-in client, newest first, a page at a time. */
export function MyLicenses({ onDownloaded, onError }: MyLicensesProps) {
  const list = useServerList(MY_LICENSES, (state) => getListMyLicensesQueryOptions(myListParams(state)));
  const licenses = list.result.data?.data ?? [];
  return (
    <DashboardSection
      id="my-licenses"
      icon={IconKey}
      title="licenses.title"
      rows={listRows(list.result, licenses.length === 0)}
      empty={<EmptyState icon={IconKeyOff} title="licenses.empty.title" hint="licenses.empty.text" testId="licenses-empty" />}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="licenses-list">
        {licenses.map((license) => (
          <LicenseCard key={license.id} license={license} onDownloaded={onDownloaded} onError={onError} />
        ))}
      </SimpleGrid>
      <ListPager meta={list.meta} onPage={list.setPage} summary="licenses.showing" withEdges={false} singlePageSummary={false} />
    </DashboardSection>
  );
}
