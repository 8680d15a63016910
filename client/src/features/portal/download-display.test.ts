import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { DistributionFileDto } from '../../api/generated/model';
import { ApiError } from '../../api/http-client';
import en from '../../i18n/en.json';
import { browserOs, downloadFailure, isLinuxFile, linuxFiles, minutesLeft, releaseDay, sortFiles } from './download-display';

const file = (over: Partial<DistributionFileDto>): DistributionFileDto => ({
  id: 1,
  file_name: 'streamhub.deb',
  file_hash: 'a'.repeat(64),
  file_size: 1000,
  os_type: 'linux',
  architecture: 'x64',
  version: '2.1.0',
  version_id: 1,
  is_latest: 1,
  download_count: 0,
  download_url: '/api/download/1',
  created_at: '2025-06-01T00:00:00.000Z',
  ...over,
});

const intl = createIntl({ locale: 'en', messages: en });

describe('download display', () => {
  it("tells the visitor's operating system from the user agent, Android and iOS being none we ship for", () => {
    expect(browserOs('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36')).toBe('linux');
    expect(browserOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0')).toBe('windows');
    expect(browserOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15')).toBe('macos');
    expect(browserOs('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile')).toBeNull();
    expect(browserOs('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15')).toBeNull();
  });

  it("orders files with the visitor's OS first, then Linux, Windows, macOS; x64, ARM64, x86; .deb before .rpm", () => {
    const files = [
      file({ id: 1, os_type: 'macos', architecture: 'arm64', file_name: 'streamhub.dmg' }),
      file({ id: 2, os_type: 'windows', architecture: 'x64', file_name: 'streamhub.zip' }),
      file({ id: 3, os_type: 'linux', architecture: 'arm64', file_name: 'streamhub_arm64.deb' }),
      file({ id: 4, os_type: 'linux', architecture: 'x64', file_name: 'streamhub.x86_64.rpm' }),
      file({ id: 5, os_type: 'linux', architecture: 'x64', file_name: 'streamhub_amd64.deb' }),
    ];
    expect(sortFiles(files).map((f) => f.id)).toEqual([5, 4, 3, 2, 1]);
    expect(sortFiles(files, 'windows').map((f) => f.id)).toEqual([2, 5, 4, 3, 1]);
    expect(sortFiles(files, 'macos').map((f) => f.id)).toEqual([1, 5, 4, 3, 2]);
  });

  it('offers the Auto-install command for Linux files only, best package first', () => {
    const files = [
      file({ id: 1, os_type: 'windows', file_name: 'streamhub.zip' }),
      file({ id: 2, os_type: 'linux', file_name: 'streamhub.tar.gz' }),
      file({ id: 3, os_type: 'linux', file_name: 'streamhub.deb' }),
    ];
    expect(isLinuxFile(files[0])).toBe(false);
    expect(isLinuxFile(files[1])).toBe(true);
    expect(linuxFiles(files).map((f) => f.id)).toEqual([3, 2]);
  });

  it('reads the release date as a calendar day and counts the minutes a link stays valid', () => {
    expect(releaseDay('2025-06-01')?.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(releaseDay('not a date')).toBeNull();
    const now = Date.parse('2025-06-01T10:00:00.000Z');
    expect(minutesLeft('2025-06-01T10:15:00.000Z', now)).toBe(15);
    expect(minutesLeft('2025-06-01T09:00:00.000Z', now)).toBe(0);
  });

  it('words download failures as the spec does', () => {
    const id = 'dashboard.downloads.errors.download' as const;
    expect(downloadFailure(intl, new ApiError('Authentication expired. Please log in again.', 401), id)).toBe(
      'Authentication required for downloads.',
    );
    expect(downloadFailure(intl, new ApiError('HTTP 502: Bad Gateway', 502), id)).toBe('Download failed: 502');
    expect(downloadFailure(intl, new ApiError('File 9 not found', 404), id)).toBe('Failed to download: File 9 not found');
    expect(downloadFailure(intl, new ApiError('Network error: Unable to connect to server', 0), id)).toBe(
      'Failed to download: Network error: Unable to connect to server',
    );
    expect(downloadFailure(intl, new ApiError('File 9 not found', 404), 'dashboard.downloads.errors.command')).toBe(
      'Failed to create the install command: File 9 not found',
    );
  });
});
