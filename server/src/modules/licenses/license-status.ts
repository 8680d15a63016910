import type { LicenseEntity, LicenseStatus } from './license.entity';

/** Pure rules about a license's dates and status: no database, no clock but the one passed in. */

export const DAY_MS = 24 * 3600 * 1000;

/** The latest expiry the databases store and every client can show. */
export const MAX_EXPIRY = new Date('9999-12-31T23:59:59.999Z');

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

/** The status as of now: an active license past its expiry is expired, whether or not the job has run. */
export function effectiveStatus(license: Pick<LicenseEntity, 'status' | 'expires_at'>, now = Date.now()): LicenseStatus {
  return license.status === 'active' && license.expires_at.getTime() <= now ? 'expired' : license.status;
}

/** The license with its status as of `now` (in memory only: reads never store it; the expiry job does). */
export function asOf<T extends Pick<LicenseEntity, 'status' | 'expires_at'>>(license: T, now = Date.now()): T {
  license.status = effectiveStatus(license, now);
  return license;
}

/** A date without a time means the end of that day (UTC): a license "until 2030-01-31" works all of that day. */
export function parseExpiry(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}

/** The expiry after an extension by `months` or else `days` (default 30): from the current expiry, or from now once it has passed. */
export function extendedExpiry(expiresAt: Date, by: { days?: number; months?: number }, now = Date.now()): Date {
  const base = new Date(Math.max(now, expiresAt.getTime()));
  return by.months !== undefined ? addMonths(base, by.months) : new Date(base.getTime() + (by.days ?? 30) * DAY_MS);
}

/** What a new expiry makes of the status: it decides between active and expired; revoked and pending stay as they are. */
export function statusForExpiry(status: LicenseStatus, expiresAt: Date, now = Date.now()): LicenseStatus {
  if (status !== 'active' && status !== 'expired') return status;
  return expiresAt.getTime() > now ? 'active' : 'expired';
}
