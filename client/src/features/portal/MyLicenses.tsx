import { Badge, Button, Card, Code, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCopy, IconDownload, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { downloadLicenseFile, useListMyLicenses } from '../../api/generated/endpoints/licenses/licenses';
import type { LicenseDto } from '../../api/generated/model';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PagerBar } from '../../components/PagerBar';
import { pageRange } from '../../components/pagination';
import { localizeServerMessage } from '../../lib/server-messages';
import { copyText, saveFile } from '../../lib/browser-actions';
import { expiresSoon } from '../../lib/license-expiry';
import { CLIENT_WARNING_DAYS, licenseStatusColor, readyToActivate } from './license-display';

/** Licenses per page of My Licenses (the test-script command offers the first page's keys). */
export const LICENSES_PAGE_SIZE = 20;
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
        {(license.is_trial || soon) && (
          <Group gap={6}>
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
          <Text fz="xs" c="dimmed">
            <FormattedMessage id="licenses.fields.key" />
          </Text>
          <Code block fz={{ base: 'xs', xs: 'sm' }} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="license-key">
            {license.license_key}
          </Code>
        </div>
        <SimpleGrid cols={2} spacing="xs">
          <div>
            <Text fz="xs" c="dimmed">
              <FormattedMessage id="licenses.fields.expires" />
            </Text>
            <Text fz="sm">
              <FormattedDate value={license.expires_at} dateStyle="medium" />
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              <FormattedMessage id="licenses.fields.devices" />
            </Text>
            <Text fz="sm" data-testid="license-devices">
              {license.current_activations}/{license.max_activations}
            </Text>
          </div>
        </SimpleGrid>
        {ready && (
          <Group gap={6} c="teal.9" fz="sm">
            <IconCircleCheck size={16} aria-hidden />
            <Text fz="sm" c="teal.9" fw={500}>
              <FormattedMessage id="licenses.readyToActivate" />
            </Text>
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

/** My Licenses: every license of the signed-in client, newest first. */
export function MyLicenses({ onDownloaded, onError }: MyLicensesProps) {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const list = useListMyLicenses({ page, limit: LICENSES_PAGE_SIZE });
  const licenses = list.data?.data ?? [];
  const meta = list.data?.meta;
  const { from, to } = pageRange(meta?.page ?? 1, meta?.limit ?? LICENSES_PAGE_SIZE, meta?.total ?? 0);

  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="my-licenses-title">
      <Group gap="xs" mb="md">
        <IconKey size={22} color="var(--mantine-color-violet-6)" aria-hidden />
        <Title order={2} fz="xl" id="my-licenses-title">
          <FormattedMessage id="licenses.title" />
        </Title>
      </Group>
      {list.isLoading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : list.error ? (
        <ErrorAlert onRetry={() => list.refetch()}>
          {intl.formatMessage({ id: 'dashboard.errors.load' }, { message: localizeServerMessage(intl, list.error.message) })}
        </ErrorAlert>
      ) : licenses.length === 0 ? (
        <Stack gap={4} align="center" ta="center" p="md" data-testid="licenses-empty">
          <Text fw={600}>
            <FormattedMessage id="licenses.empty.title" />
          </Text>
          <Text fz="sm" c="dimmed">
            <FormattedMessage id="licenses.empty.text" />
          </Text>
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="licenses-list">
          {licenses.map((license) => (
            <LicenseCard key={license.id} license={license} onDownloaded={onDownloaded} onError={onError} />
          ))}
        </SimpleGrid>
      )}
      {meta && (
        <PagerBar
          page={meta.page}
          pages={meta.pages}
          onPage={setPage}
          withEdges={false}
          summary={<FormattedMessage id="licenses.showing" values={{ from, to, total: meta.total }} />}
        />
      )}
    </Card>
  );
}
