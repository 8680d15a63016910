import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SORT,
  fileProblem,
  listFilters,
  platformCount,
  shortHash,
  uploadFailure,
  uploadSucceeded,
  versionChoiceLabel,
  versionMarks,
} from './file-display';

describe('shortHash', () => {
  it('shows the first 12 characters of a file hash', () => {
    expect(shortHash('0123456789abcdef0123')).toBe('0123456789ab');
    expect(shortHash('abc')).toBe('abc');
    expect(shortHash(null)).toBe('');
  });
});

describe('platformCount', () => {
  it('counts the operating systems that have files', () => {
    expect(platformCount({ files_by_os: [] })).toBe(0);
    expect(
      platformCount({
        files_by_os: [
          { os_type: 'windows', count: 2, downloads: 0, size: 10 },
          { os_type: 'linux', count: 1, downloads: 5, size: 20 },
          { os_type: 'macos', count: 0, downloads: 0, size: 0 },
        ],
      }),
    ).toBe(2);
  });
});

describe('versionMarks', () => {
  it('marks a version (Latest) and (Stable) from the 1/0 flags', () => {
    expect(versionMarks({ is_latest: 1, is_stable: 1 })).toEqual(['latest', 'stable']);
    expect(versionMarks({ is_latest: 0, is_stable: 1 })).toEqual(['stable']);
    expect(versionMarks({ is_latest: 1, is_stable: 0 })).toEqual(['latest']);
    expect(versionMarks({ is_latest: 0, is_stable: 0 })).toEqual([]);
  });
});

describe('DEFAULT_SORT', () => {
  it('starts newest first', () => {
    expect(DEFAULT_SORT).toEqual({ sort: 'created_at', order: 'desc' });
  });
});

describe('fileProblem', () => {
  const file = (size: number) => new Blob([new Uint8Array(size)]);
  it("refuses a missing or empty file ('Please select a file.')", () => {
    expect(fileProblem(null)).toBe('missing');
    expect(fileProblem(undefined)).toBe('missing');
    expect(fileProblem(file(0))).toBe('missing');
  });
  it('refuses a file beyond the limit the server announces, and only then', () => {
    expect(fileProblem(file(11), 10)).toBe('tooLarge');
    expect(fileProblem(file(10), 10)).toBeNull();
    expect(fileProblem(file(11))).toBeNull();
  });
});

describe('listFilters', () => {
  it('sends only the filters that narrow the list', () => {
    expect(listFilters({ search: '  ', versionId: 'all', os: 'all' })).toEqual({
      search: undefined,
      version_id: undefined,
      os_type: undefined,
    });
    expect(listFilters({ search: ' 2.1 ', versionId: '7', os: 'linux' })).toEqual({ search: '2.1', version_id: 7, os_type: 'linux' });
  });
});

describe('upload answers', () => {
  it('counts an upload as done only with success or data', () => {
    expect(uploadSucceeded({ success: true })).toBe(true);
    expect(uploadSucceeded({ success: false, data: { id: 1 } })).toBe(true);
    expect(uploadSucceeded({ success: false })).toBe(false);
    expect(uploadSucceeded(null)).toBe(false);
  });
  it("uses the spec's words for no answer, 413 and 415, and the server's own words otherwise", () => {
    expect(uploadFailure({ status: 0, message: 'Network error' })).toEqual({ kind: 'network' });
    expect(uploadFailure({ status: 413, message: 'File too large. The maximum upload size is 2 GB.' })).toEqual({ kind: 'tooLarge' });
    expect(uploadFailure({ status: 415, message: 'File type not allowed. Allowed types: .exe' })).toEqual({ kind: 'unsupported' });
    expect(uploadFailure({ status: 409, message: 'A file named streamhub.deb already exists' })).toEqual({
      kind: 'server',
      message: 'A file named streamhub.deb already exists',
    });
  });
});

describe('versionChoiceLabel', () => {
  const messages: Record<string, string> = {
    'admin.files.versionLabel': 'v{version}',
    'admin.files.mark.latest': '(Latest)',
    'admin.files.mark.stable': '(Stable)',
  };
  const intl = {
    formatMessage: ({ id }: { id: string }, values?: Record<string, string>) =>
      messages[id].replace(/\{(\w+)\}/g, (_, name: string) => values?.[name] ?? ''),
  };
  it('reads v{version} plus (Latest) and (Stable)', () => {
    expect(versionChoiceLabel(intl, { version: '2.1.0', is_latest: 1, is_stable: 1 })).toBe('v2.1.0 (Latest) (Stable)');
    expect(versionChoiceLabel(intl, { version: '2.0.0', is_latest: 0, is_stable: 0 })).toBe('v2.0.0');
  });
});
