import { describe, expect, it } from 'vitest';
import { formatAdminBytes, formatBytes } from './format';

describe('formatBytes (customer screens: one decimal)', () => {
  it('uses Bytes, KB, MB, GB on base 1024 in the locale', () => {
    expect(formatBytes(512, 'en')).toBe('512 Bytes');
    expect(formatBytes(1024, 'en')).toBe('1.0 KB');
    expect(formatBytes(300_000, 'en')).toBe('293.0 KB');
    expect(formatBytes(1536 * 1024, 'en')).toBe('1.5 MB');
    expect(formatBytes(5 * 1024 ** 3, 'en')).toBe('5.0 GB');
    expect(formatBytes(1536 * 1024, 'de')).toBe('1,5 MB');
  });
});

describe('formatAdminBytes (admin screens: two decimals)', () => {
  it('uses Bytes, KB, MB, GB on base 1024 in the locale', () => {
    expect(formatAdminBytes(512, 'en')).toBe('512 Bytes');
    expect(formatAdminBytes(1536, 'en')).toBe('1.50 KB');
    expect(formatAdminBytes(104_857_600, 'en')).toBe('100.00 MB');
    expect(formatAdminBytes(3 * 1024 ** 3, 'en')).toBe('3.00 GB');
    expect(formatAdminBytes(1536, 'de')).toBe('1,50 KB');
  });
});
