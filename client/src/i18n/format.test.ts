import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { formatAdminBytes, formatBytes, formatCount, formatMoney } from './format';

const en = createIntl({ locale: 'en' });
const de = createIntl({ locale: 'de' });
const nbsp = '\u00a0';

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

describe('formatMoney (the one money format)', () => {
  it('writes money in the locale’s currency format, cents included', () => {
    expect(formatMoney(en, 60, 'USD')).toBe('$60.00');
    expect(formatMoney(en, 360, 'USD')).toBe('$360.00');
    expect(formatMoney(de, 10, 'USD')).toBe(`10,00${nbsp}$`);
    expect(formatMoney(de, 1234.5, 'EUR')).toBe(`1.234,50${nbsp}€`);
  });

  it('keeps headline figures below 10,000 in full, and shortens them only from 10,000 up', () => {
    expect(formatMoney(en, 60, 'USD', { compact: true })).toBe('$60.00');
    expect(formatMoney(en, 360, 'USD', { compact: true })).toBe('$360.00');
    expect(formatMoney(en, 9_999, 'USD', { compact: true })).toBe('$9,999.00');
    expect(formatMoney(en, 10_000, 'USD', { compact: true })).toBe('$10K');
    expect(formatMoney(en, 12_345, 'USD', { compact: true })).toBe('$12.3K');
    expect(formatMoney(en, 1_250_000, 'USD', { compact: true })).toBe('$1.3M');
    expect(formatMoney(de, 60, 'USD', { compact: true })).toBe(`60,00${nbsp}$`);
    // German abbreviates from a million only.
    expect(formatMoney(de, 12_345, 'USD', { compact: true })).toBe(`12.345${nbsp}$`);
    expect(formatMoney(de, 1_250_000, 'USD', { compact: true })).toBe(`1,3${nbsp}Mio.${nbsp}$`);
  });

  it('never shortens a price that is not a headline figure', () => {
    expect(formatMoney(en, 12_345, 'USD')).toBe('$12,345.00');
  });
});

describe('formatCount', () => {
  it('writes counts below 10,000 in full, headline counts from 10,000 up in short form', () => {
    expect(formatCount(en, 0, { compact: true })).toBe('0');
    expect(formatCount(en, 2, { compact: true })).toBe('2');
    expect(formatCount(en, 9_999, { compact: true })).toBe('9,999');
    expect(formatCount(de, 9_999, { compact: true })).toBe('9.999');
    expect(formatCount(en, 10_000, { compact: true })).toBe('10K');
    expect(formatCount(en, 12_345, { compact: true })).toBe('12.3K');
    expect(formatCount(en, 12_345)).toBe('12,345');
    expect(formatCount(de, 2_500_000, { compact: true })).toBe(`2,5${nbsp}Mio.`);
  });
});
