import { Button, Group, Loader, Text } from '@mantine/core';
import { IconCloud, IconRefresh, IconServer } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LicenseServerStatusDto } from '../../api/generated/model';
import type { MessageId } from '../../i18n/message-id';
import { syncRecommended, WARNING_TEXT } from './sync-display';
import { MessageText } from '../Message';

/** 'Sync with License Server': orange while a sync is recommended (admin spec section 4). */
export function SyncButton({
  label,
  lastSync,
  known,
  loading,
  disabled,
  onClick,
}: {
  label: MessageId;
  lastSync: string | null;
  /** Whether the last-sync time has loaded (no orange guess before it has). */
  known: boolean;
  loading: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  const recommended = known && syncRecommended(lastSync);
  return (
    <Button
      variant={recommended ? 'light' : 'default'}
      color={recommended ? 'orange' : undefined}
      c={recommended ? WARNING_TEXT : undefined}
      leftSection={<IconRefresh size={16} />}
      data-sync-recommended={recommended || undefined}
      loading={loading}
      disabled={disabled}
      onClick={onClick}
    >
      <FormattedMessage id={label} />
    </Button>
  );
}

/** 'Last sync: …' with '(Sync recommended)' when it is missing or older than 24 hours. */
export function LastSync({ lastSync, testId }: { lastSync: string | null; testId: string }) {
  const intl = useIntl();
  return (
    <Group gap={6} wrap="wrap" data-testid={testId}>
      <IconCloud size={16} aria-hidden />
      <Text fz="sm">
        <FormattedMessage
          id="admin.versions.status.lastSync"
          values={{
            time: lastSync
              ? intl.formatDate(lastSync, { dateStyle: 'medium', timeStyle: 'short' })
              : intl.formatMessage({ id: 'admin.versions.status.never' }),
          }}
        />
      </Text>
      {syncRecommended(lastSync) && (
        <MessageText fz="sm" fw={600} c={WARNING_TEXT} data-testid={`${testId}-recommended`} message="admin.versions.status.recommended" />
      )}
    </Group>
  );
}

/** Which license server the Sync actions talk to, and 'Connecting to license server...' while they run. */
export function LicenseServerLine({ status, syncing }: { status: LicenseServerStatusDto | undefined; syncing: boolean }) {
  if (!status && !syncing) return null;
  return (
    <Group gap={6} wrap="wrap" data-testid="license-server-line">
      {syncing ? <Loader size={14} /> : <IconServer size={16} aria-hidden />}
      <Text fz="sm" role="status">
        {syncing ? (
          <FormattedMessage id="admin.licenseServer.connecting" />
        ) : status?.url ? (
          <FormattedMessage id="admin.licenseServer.external" values={{ url: status.url }} />
        ) : (
          <FormattedMessage id="admin.licenseServer.self" />
        )}
      </Text>
    </Group>
  );
}
