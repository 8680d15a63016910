import { Button, Text, TextInput, Tooltip } from '@mantine/core';
import { IconListDetails, IconTrash } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  exportLogs,
  getListAccessLogsQueryOptions,
  getListDownloadLogsQueryOptions,
  getListSystemLogsQueryOptions,
  useClearLogs,
} from '../../../api/generated/endpoints/logs/logs';
import type { LogEntryDto, LogKind, LogLevel, LogListResponseDto, SystemLogsResponseDto } from '../../../api/generated/model';
import { FilterSelect, RefreshButton } from '../../../components/admin-list/ListFrame';
import { ListScreen } from '../../../components/admin-list/ListScreen';
import { useAdminActions } from '../../../components/admin-list/use-admin-actions';
import { confirmAction } from '../../../components/confirm-action';
import { useServerList } from '../../../components/admin-list/use-server-list';
import { ExportMenu } from '../../../components/admin-list/ExportMenu';
import { pageRange } from '../../../components/pagination';
import { SearchField } from '../../../components/SearchField';
import { exportFileName, LEVELS, type LogFilters, LOG_TYPES, LOGS_LIST, logFilters, mergeSystemLogs, REFRESH_MS } from './logs-display';
import { LogsTable } from './LogsTable';
import { levelLabel } from '../../../lib/audit-messages';

type LogsAnswer = SystemLogsResponseDto | LogListResponseDto;
const polled = { query: { refetchInterval: REFRESH_MS } };

/** System Logs: the audit trail and remote entries, access and download logs; search, filters, export and clear. */
export default function LogsPage() {
  const intl = useIntl();
  const list = useServerList<LogFilters, 'created_at', LogsAnswer>(LOGS_LIST, (state) => {
    const params = { ...logFilters(state), page: state.page, limit: state.limit };
    if (state.type === 'access') return getListAccessLogsQueryOptions(params, polled);
    if (state.type === 'downloads') return getListDownloadLogsQueryOptions(params, polled);
    return getListSystemLogsQueryOptions({ ...params, source: state.type === 'system' ? undefined : state.type }, polled);
  });
  const actions = useAdminActions({ refresh: list.refresh });
  const { state } = list;
  const answer = list.result.data?.data;
  const entries: LogEntryDto[] = !answer
    ? []
    : Array.isArray(answer)
      ? answer
      : mergeSystemLogs(answer.local_logs, answer.remote_logs, state.order);
  const typeLabel = (type: LogKind) => intl.formatMessage({ id: `admin.logs.types.${type}` });

  const clear = useClearLogs(
    actions.mutation({
      success: ({ data }) => intl.formatMessage({ id: 'admin.logs.messages.cleared' }, { type: typeLabel(data.type) }),
      failure: 'admin.logs.errors.clear',
    }),
  );

  const confirmClear = () =>
    confirmAction(intl, {
      title: 'admin.logs.clear.title',
      children: (
        <Text fz="sm" data-testid="logs-clear-confirmation">
          <FormattedMessage
            id={state.type === 'system' ? 'admin.logs.clear.systemText' : 'admin.logs.clear.text'}
            values={{ type: typeLabel(state.type) }}
          />
        </Text>
      ),
      confirm: 'admin.logs.clear.confirm',
      onConfirm: () => clear.mutate({ data: { type: state.type } }),
    });

  const meta = list.meta;
  const { from, to } = meta ? pageRange(meta.page, meta.limit, meta.total) : { from: 0, to: 0 };
  const capped = !!meta && 'total_capped' in meta && meta.total_capped;
  const clearButton = (
    <Button
      color="red.9"
      variant="outline"
      leftSection={<IconTrash size={16} />}
      onClick={confirmClear}
      disabled={state.type === 'local'}
      loading={clear.isPending}
    >
      <FormattedMessage id="admin.logs.clear.button" />
    </Button>
  );

  // The day range: From no later than To.
  const dayField = (field: 'from' | 'to') => (
    <TextInput
      type="date"
      style={{ flex: '0 1 160px' }}
      label={intl.formatMessage({ id: field === 'from' ? 'admin.logs.filters.from' : 'admin.logs.filters.to' })}
      value={state[field]}
      min={field === 'to' ? state.from || undefined : undefined}
      max={field === 'from' ? state.to || undefined : undefined}
      onChange={(event) => list.update({ [field]: event.currentTarget.value })}
    />
  );

  return (
    <ListScreen
      title="admin.logs.title"
      subtitle={<FormattedMessage id="admin.logs.subtitle" />}
      actions={
        <>
          <ExportMenu
            labels={{ button: 'admin.logs.export.button', csv: 'admin.logs.export.csv', json: 'admin.logs.export.json' }}
            formats={['json', 'csv']}
            fetch={(format) => exportLogs({ type: state.type, format, ...logFilters(state) })}
            fileName={(format) => exportFileName(state.type, format)}
            onError={actions.feedback.failed('admin.logs.errors.export')}
          />
          {state.type === 'local' ? (
            <Tooltip label={intl.formatMessage({ id: 'admin.logs.clear.localNever' })} multiline w={260}>
              <span>{clearButton}</span>
            </Tooltip>
          ) : (
            clearButton
          )}
        </>
      }
      feedback={actions.feedback}
      list={list}
      filters={
        <>
          <FilterSelect
            style={{ flex: '0 1 200px' }}
            label={intl.formatMessage({ id: 'admin.logs.filters.type' })}
            options={LOG_TYPES.map((value) => ({ value, label: typeLabel(value) }))}
            value={state.type}
            onChange={(type) => list.update({ type: type as LogKind })}
          />
          <SearchField label="admin.logs.filters.searchLabel" placeholder="admin.logs.filters.search" {...list.searchProps} />
          <FilterSelect
            style={{ flex: '0 1 150px' }}
            label={intl.formatMessage({ id: 'admin.logs.filters.level' })}
            options={[
              { value: 'all', label: intl.formatMessage({ id: 'admin.logs.filters.allLevels' }) },
              ...LEVELS.map((value) => ({ value, label: levelLabel(intl, value) })),
            ]}
            value={state.level}
            onChange={(level) => list.update({ level: level as LogLevel | 'all' })}
          />
          {dayField('from')}
          {dayField('to')}
          <RefreshButton result={list.result} onClick={() => void list.refresh()} />
        </>
      }
      filtersFooter={
        <Text fz="sm" c="dimmed" data-testid="logs-caption">
          <FormattedMessage
            id={capped ? 'admin.logs.captionCapped' : 'admin.logs.caption'}
            values={{ from, to, total: meta?.total ?? 0 }}
          />
        </Text>
      }
      isEmpty={entries.length === 0}
      loadingLabel={intl.formatMessage({ id: 'admin.logs.loading' })}
      empty={{ icon: IconListDetails, testId: 'logs-empty' }}
      pager={{ summary: 'admin.logs.pageSummary', withEdges: false, singlePageSummary: false }}
      table={<LogsTable entries={entries} sorting={list.sorting} />}
    />
  );
}
