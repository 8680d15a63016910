import type { DeviceStatus, LicenseDto, LicenseStatus } from '../../api/generated/model';

/** The 'Expires soon!' warning on client licenses: expiry within the next 7 days (spec section 9). */
export const EXPIRES_SOON_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export function expiresSoon(license: Pick<LicenseDto, 'status' | 'expires_at'>, now = new Date()): boolean {
  const left = new Date(license.expires_at).getTime() - now.getTime();
  return license.status === 'active' && left > 0 && left <= EXPIRES_SOON_DAYS * DAY_MS;
}

/** 'Ready to activate': active and a seat is free. */
export const readyToActivate = (license: Pick<LicenseDto, 'status' | 'current_activations' | 'max_activations'>) =>
  license.status === 'active' && license.current_activations < license.max_activations;

/** Active green (teal: the shade that keeps AA contrast on a light badge), expired red, anything else grey (spec section 4). */
export const licenseStatusColor = (status: LicenseStatus) => (status === 'active' ? 'teal' : status === 'expired' ? 'red' : 'gray');

export const deviceStatusColor = (status: DeviceStatus) => (status === 'active' ? 'teal' : status === 'failed' ? 'red' : 'gray');
