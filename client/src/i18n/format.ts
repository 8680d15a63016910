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
