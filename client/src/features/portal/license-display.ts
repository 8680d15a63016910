import type { DeviceStatus, LicenseDto, LicenseStatus } from '../../api/generated/model';
import type { ListBase } from '../../components/admin-list/list-state';

/** A client's license warns 'Expires soon!' 7 days ahead (spec section 9). */
export const CLIENT_WARNING_DAYS = 7;

/** 'Ready to activate': active and a seat is free. */
export const readyToActivate = (license: Pick<LicenseDto, 'status' | 'current_activations' | 'max_activations'>) =>
  license.status === 'active' && license.current_activations < license.max_activations;

/** Active green (teal: the shade that keeps AA contrast on a light badge), expired red, anything else grey (spec section 4). */
export const licenseStatusColor = (status: LicenseStatus) => (status === 'active' ? 'teal' : status === 'expired' ? 'red' : 'gray');

export const deviceStatusColor = (status: DeviceStatus) => (status === 'active' ? 'teal' : status === 'failed' ? 'red' : 'gray');

/** What the client's own lists (licenses, devices) take: a page, its size, the direction and a search. */
export const myListParams = ({ page, limit, order, search }: ListBase) => ({ page, limit, order, search: search || undefined });
