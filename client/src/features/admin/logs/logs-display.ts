import type { LogEntryDto, LogKind, LogLevel } from '../../../api/generated/model';
import type { ListSpec } from '../../../components/admin-list/list-state';
import { PAGE_SIZE } from '../../../lib/admin-tables';

/** Log auto-refresh (admin spec section 9); the page size is the other tables' (the spec does not show one). */
export const REFRESH_MS = 30_000;

export const LOG_TYPES: LogKind[] = ['system', 'local', 'remote', 'access', 'downloads'];
export const LEVELS: LogLevel[] = ['error', 'warning', 'info', 'debug'];

export type LogFilters = { type: LogKind; level: LogLevel | 'all'; from: string; to: string };
/** The list in the URL: type, level, day range, search, page and the direction of the time sort. */
export const LOGS_LIST: ListSpec<LogFilters, 'created_at'> = {
  defaults: { search: '', type: 'system', level: 'all', from: '', to: '', page: 1, limit: PAGE_SIZE, sort: 'created_at', order: 'desc' },
  sorts: ['created_at'],
  choices: { type: LOG_TYPES, level: ['all', ...LEVELS] },
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The query every log list and the export take: a day range in the reader's time zone becomes two instants. */
export function logFilters(state: LogFilters & { search: string; order: 'asc' | 'desc' }) {
  const day = (value: string, time: string) => (DAY.test(value) ? new Date(`${value}T${time}`).toISOString() : undefined);
  return {
    search: state.search || undefined,
    order: state.order,
    level: state.level === 'all' ? undefined : state.level,
    from: day(state.from, '00:00:00'),
    to: day(state.to, '23:59:59.999'),
  };
}

/** Level badge colours (admin spec section 2): red error, yellow warning, blue info, grey debug or anything else. */
export function levelColor(level: string | null | undefined): string {
  if (level === 'error') return 'red';
  if (level === 'warning') return 'yellow';
  if (level === 'info' || !level) return 'blue';
  return 'gray';
}

/** Local and remote entries of a system page as one list, in the page's time order. */
export function mergeSystemLogs(local: LogEntryDto[], remote: LogEntryDto[], order: 'asc' | 'desc'): LogEntryDto[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...local, ...remote].sort((a, b) => sign * (Date.parse(a.created_at) - Date.parse(b.created_at)) || sign * (a.id - b.id));
}

/** A user agent cut to a readable length (the full text is in its title). */
export const shortAgent = (agent: string, max = 60) => (agent.length > max ? `${agent.slice(0, max - 1)}…` : agent);

/** The spec's export file name, {type}_logs_{date}.json (or .csv). */
export const exportFileName = (type: LogKind, format: 'json' | 'csv', now = new Date()) =>
  `${type}_logs_${now.toISOString().slice(0, 10)}.${format}`;
