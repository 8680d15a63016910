import { Badge, Box, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, IntlShape, useIntl } from 'react-intl';
import type { LogEntryDto, RemoteContextDto } from '../../../api/generated/model';
import { ListColumn, ListTable } from '../../../components/admin-list/ListTable';
import type { TableSorting } from '../../../components/admin-list/use-server-list';
import { WrapEmails } from '../../../components/WrapEmails';
import { formatAdminBytes } from '../../../i18n/format';
import type { MessageId } from '../../../i18n/message-id';
import { describeLogEntry, levelLabel } from '../../../lib/audit-messages';
import { levelColor, shortAgent } from './logs-display';
import { MessageText } from '../../../components/Message';

function ContextField({ label, children }: { label: MessageId; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <MessageText fz={11} c="dimmed" tt="uppercase" fw={600} message={label} />
      <Text fz="xs" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** Host, product and version, server UID, license key, valid, timestamp of what a streaming server reported. */
function RemoteContextBox({ context }: { context: RemoteContextDto }) {
  const intl = useIntl();
  const yes = (value: boolean) => intl.formatMessage({ id: value ? 'admin.logs.remote.yes' : 'admin.logs.remote.no' });
  return (
    <Box mt={6} p={8} bg="violet.0" style={{ borderRadius: 6 }} data-testid="remote-context">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} verticalSpacing={4}>
        <ContextField label="admin.logs.remote.host">{context.hostname || '—'}</ContextField>
        <ContextField label="admin.logs.remote.product">{[context.product, context.version].filter(Boolean).join(' ') || '—'}</ContextField>
        <ContextField label="admin.logs.remote.serverUid">{context.server_uid || '—'}</ContextField>
        <ContextField label="admin.logs.remote.licenseKey">{context.key || '—'}</ContextField>
        <ContextField label="admin.logs.remote.valid">{yes(context.valid)}</ContextField>
        <ContextField label="admin.logs.remote.timestamp">
          {context.timestamp ? intl.formatDate(context.timestamp, { dateStyle: 'medium', timeStyle: 'medium' }) : '—'}
        </ContextField>
      </SimpleGrid>
    </Box>
  );
}

/** What the Details column says about an entry of each kind. */
function Details({ entry }: { entry: LogEntryDto }) {
  const intl = useIntl();
  if (entry.access) {
    const { method, path, status, duration_ms, bytes_out } = entry.access;
    return (
      <Text fz="xs" style={{ overflowWrap: 'anywhere' }}>
        {method} {path} → {status} · {intl.formatNumber(duration_ms, { maximumFractionDigits: 1 })} ms ·{' '}
        {formatAdminBytes(bytes_out, intl.locale)}
      </Text>
    );
  }
  if (entry.download) {
    const { version, os_type, architecture, file_size, via } = entry.download;
    return (
      <Text fz="xs">
        v{version} · {os_type}/{architecture} · {file_size == null ? '—' : formatAdminBytes(file_size, intl.locale)} · {via}
      </Text>
    );
  }
  const parts = [entry.action, entry.target_type && `${entry.target_type}${entry.target_id ? ` #${entry.target_id}` : ''}`].filter(Boolean);
  const status = (entry.context as { status?: unknown } | null)?.status;
  return (
    <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {parts.join(' · ')}
      {typeof status === 'number' ? ` · HTTP ${status}` : ''}
    </Text>
  );
}

/** Time (sortable), Level, Message, User / IP, Details; the level folds under the time on a narrow screen. */
const columns = (intl: IntlShape): Array<ListColumn<LogEntryDto, 'created_at'>> => [
  {
    sort: 'created_at',
    label: 'admin.logs.columns.time',
    td: { fz: 'xs', style: { whiteSpace: 'nowrap' } },
    cell: (entry) => intl.formatDate(entry.created_at, { dateStyle: 'short', timeStyle: 'medium' }),
  },
  {
    label: 'admin.logs.columns.level',
    fold: 1,
    td: { miw: 96 },
    cell: (entry) => (
      <Stack gap={4} align="flex-start">
        <Badge size="sm" variant="light" color={levelColor(entry.level)} c={`${levelColor(entry.level)}.9`} data-testid="log-level">
          {levelLabel(intl, entry.level)}
        </Badge>
        {entry.source === 'remote' && (
          <Badge size="sm" variant="light" color="violet" c="violet.9">
            <FormattedMessage id="admin.logs.remoteBadge" />
          </Badge>
        )}
      </Stack>
    ),
  },
  {
    label: 'admin.logs.columns.message',
    td: { maw: 420, miw: 180 },
    cell: (entry) => (
      <>
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          <WrapEmails text={describeLogEntry(intl, entry)} />
        </Text>
        {entry.file_name && (
          <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {entry.file_name}
          </Text>
        )}
        {entry.remote_context && <RemoteContextBox context={entry.remote_context} />}
      </>
    ),
  },
  {
    label: 'admin.logs.columns.user',
    td: { maw: 240, miw: 140 },
    cell: (entry) => (
      <>
        <Text fz="xs" style={{ overflowWrap: 'anywhere' }}>
          {entry.user_email ? <WrapEmails text={entry.user_email} /> : '—'}
        </Text>
        <Text fz="xs" c="dimmed">
          {entry.ip_address ?? ''}
        </Text>
        {entry.user_agent && (
          <Text fz={11} c="dimmed" title={entry.user_agent} style={{ overflowWrap: 'anywhere' }}>
            {shortAgent(entry.user_agent)}
          </Text>
        )}
      </>
    ),
  },
  { label: 'admin.logs.columns.details', td: { maw: 260, miw: 140 }, cell: (entry) => <Details entry={entry} /> },
];

/** The System Logs table; remote entries carry their Remote Context box. */
export function LogsTable({ entries, sorting }: { entries: LogEntryDto[]; sorting: TableSorting<'created_at'> }) {
  const intl = useIntl();
  return (
    <ListTable
      rows={entries}
      rowKey={(entry) => `${entry.source}-${entry.id}`}
      rowProps={(entry) => ({ 'data-testid': 'log-row', 'data-source': entry.source, 'data-level': entry.level })}
      columns={columns(intl)}
      sorting={sorting}
      testId="logs-table"
    />
  );
}
