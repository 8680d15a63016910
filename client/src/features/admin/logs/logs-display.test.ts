import { describe, expect, it } from 'vitest';
import type { LogEntryDto } from '../../../api/generated/model';
import { exportFileName, levelColor, logFilters, mergeSystemLogs, shortAgent } from './logs-display';

const entry = (id: number, created_at: string, source: 'local' | 'remote') => ({ id, created_at, source }) as LogEntryDto;

describe('logs display', () => {
  it('colours levels as the spec says, INFO by default', () => {
    expect(['error', 'warning', 'info', 'debug', null, 'notice'].map(levelColor)).toEqual([
      'red',
      'yellow',
      'blue',
      'gray',
      'blue',
      'gray',
    ]);
  });

  it('merges local and remote entries in the page’s time order', () => {
    const local = [entry(1, '2026-11-25T10:00:00Z', 'local'), entry(2, '2026-11-25T12:00:00Z', 'local')];
    const remote = [entry(7, '2026-11-25T11:00:00Z', 'remote')];
    expect(mergeSystemLogs(local, remote, 'desc').map((e) => e.id)).toEqual([2, 7, 1]);
    expect(mergeSystemLogs(local, remote, 'asc').map((e) => e.id)).toEqual([1, 7, 2]);
  });

  it('turns a day range into instants from the start of the first day to the end of the last', () => {
    const filters = logFilters({ search: '', order: 'desc', type: 'system', level: 'all', from: '2026-11-01', to: '2026-11-02' });
    expect(filters.level).toBeUndefined();
    expect(new Date(filters.from!).getTime()).toBe(new Date('2026-11-01T00:00:00').getTime());
    expect(new Date(filters.to!).getTime()).toBe(new Date('2026-11-02T23:59:59.999').getTime());
    expect(logFilters({ search: 'x', order: 'asc', type: 'access', level: 'error', from: 'nonsense', to: '' })).toEqual({
      search: 'x',
      order: 'asc',
      level: 'error',
      from: undefined,
      to: undefined,
    });
  });

  it('names exports as the spec does', () => {
    expect(exportFileName('remote', 'json', new Date('2026-11-25T10:00:00Z'))).toBe('remote_logs_2026-11-25.json');
    expect(exportFileName('access', 'csv', new Date('2026-11-25T10:00:00Z'))).toBe('access_logs_2026-11-25.csv');
  });

  it('cuts long user agents', () => {
    expect(shortAgent('a'.repeat(100))).toHaveLength(60);
    expect(shortAgent('curl/8')).toBe('curl/8');
  });
});
