import { type AdminLicenseDto, type LicenseStatus, ListAdminLicensesSort } from '../../../api/generated/model';
import type { ListSpec } from '../../../components/admin-list/list-state';
import type { Sorting } from '../../../components/pagination';
import { PAGE_SIZE } from '../../../lib/admin-tables';

/** The table warns 'Expires soon!' 30 days ahead (admin spec section 9). */
export const ADMIN_WARNING_DAYS = 30;

/** Newest first (admin spec section 9). */
export const DEFAULT_SORT: Sorting<ListAdminLicensesSort> = { sort: 'created_at', order: 'desc' };

export const STATUSES: LicenseStatus[] = ['active', 'expired', 'revoked', 'pending'];

type LicenseFilters = { status: LicenseStatus | 'all' };
export const LICENSES_LIST: ListSpec<LicenseFilters, ListAdminLicensesSort> = {
  defaults: { search: '', status: 'all', page: 1, limit: PAGE_SIZE, ...DEFAULT_SORT },
  sorts: Object.values(ListAdminLicensesSort),
  choices: { status: ['all', ...STATUSES] },
};

/** The list and export filters: 'all' is no filter. */
export const statusFilter = (status: LicenseStatus | 'all') => (status === 'all' ? undefined : status);

/** The delete message clears after 8 s, not the usual 5 (admin spec sections 8 and 9). */
export const DELETE_MESSAGE_MS = 8000;

export const STATUS_COLORS: Record<LicenseStatus, string> = {
  active: 'green',
  expired: 'red',
  revoked: 'gray',
  pending: 'yellow',
};

/** The one status action a row offers (admin spec section 2): Activate for a revoked license, Revoke for any other. */
export const statusAction = (status: LicenseStatus): 'activate' | 'revoke' => (status === 'revoked' ? 'activate' : 'revoke');

/** Seats in use as a bar width: 0 to 100, never wider than the bar even when more devices hold seats than allowed. */
export function activationPercent(current: number, max: number): number {
  if (!(max > 0) || !(current > 0)) return 0;
  return Math.min(100, Math.round((current / max) * 100));
}

export function activationColor(percent: number): string {
  return percent >= 100 ? 'red' : percent >= 80 ? 'orange' : 'teal';
}

/** Synced when the license server has confirmed it (synced_at set), otherwise Pending. */
export const isSynced = (license: Pick<AdminLicenseDto, 'synced_at'>) => !!license.synced_at;

/** Max activations as typed: at least 1, and 1 when it is not a number (admin spec section 5). */
export function maxActivationsOf(value: unknown): number {
  const number = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(number) ? Math.trunc(number) : 1;
}

/** licenses_{YYYY-MM-DD}.{csv|json}, as the server names it. */
export const exportFileName = (format: 'csv' | 'json', now = new Date()) => `licenses_${now.toISOString().slice(0, 10)}.${format}`;
