import type { IntlShape } from 'react-intl';

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes, KB, MB, GB (base 1024) with the given decimals, in the locale's number format. */
export function formatBytes(bytes: number, locale: string, decimals = 1): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${UNITS[0]}`;
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  const digits = exponent === 0 ? 0 : decimals;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value)} ${UNITS[exponent]}`;
}

/** File sizes in the admin screens: two decimals (admin spec section 9). */
export const formatAdminBytes = (bytes: number, locale: string) => formatBytes(bytes, locale, 2);

/** Below this a figure is written out in full even where space is short: 9,999 stays 9,999, never "10K". */
export const COMPACT_FROM = 10_000;

type NumberFormatter = Pick<IntlShape, 'formatNumber'>;

/** Short notation (12K, 1.3 Mio.) for a headline figure of at least COMPACT_FROM; every smaller one in full. */
const compactIf = (value: number, compact: boolean) =>
  compact && Math.abs(value) >= COMPACT_FROM ? ({ notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 } as const) : {};

/**
 * Money, the one way the client writes it: the locale's currency format ($60.00, 60,00 $), and with `compact` (headline
 * figures) the locale's short form from COMPACT_FROM up ($12K, 12.345 $ in German, which abbreviates only millions).
 */
export function formatMoney(intl: NumberFormatter, amount: number, currency: string, { compact = false } = {}): string {
  return intl.formatNumber(amount, { style: 'currency', currency, ...compactIf(amount, compact) });
}

/** A count in the locale's format; with `compact` (headline figures) in short form from COMPACT_FROM up (12K). */
export function formatCount(intl: NumberFormatter, value: number, { compact = false } = {}): string {
  return intl.formatNumber(value, compactIf(value, compact));
}
