import type { ListUsersParams } from '../../../api/generated/model';

export const USERS_PREFERENCES_KEY = 'admin_users_preferences';
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

export interface UsersPreferences {
  search: string;
  status: 'all' | 'active' | 'inactive';
  role: 'all' | 'admin' | 'client' | 'moderator';
  emailStatus: 'all' | 'verified' | 'unverified';
  page: number;
  limit: (typeof PAGE_SIZES)[number];
  sort: NonNullable<ListUsersParams['sort']>;
  order: 'asc' | 'desc';
}

export const DEFAULT_PREFERENCES: UsersPreferences = {
  search: '',
  status: 'all',
  role: 'all',
  emailStatus: 'all',
  page: 1,
  limit: 10,
  sort: 'created_at',
  order: 'desc',
};

/** Filters, page, page size and sort as last left, ignoring anything stored that no longer fits. */
export function loadPreferences(): UsersPreferences {
  try {
    const stored = JSON.parse(localStorage.getItem(USERS_PREFERENCES_KEY) ?? '{}') as Partial<UsersPreferences>;
    const merged = { ...DEFAULT_PREFERENCES, ...stored };
    if (!PAGE_SIZES.includes(merged.limit)) merged.limit = DEFAULT_PREFERENCES.limit;
    if (!Number.isInteger(merged.page) || merged.page < 1) merged.page = 1;
    return merged;
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

export function savePreferences(preferences: UsersPreferences): void {
  localStorage.setItem(USERS_PREFERENCES_KEY, JSON.stringify(preferences));
}

/** The list query the server gets: 'all' means no filter. */
export function toListParams(preferences: UsersPreferences, search: string): ListUsersParams {
  return {
    search: search.trim() || undefined,
    status: preferences.status === 'all' ? undefined : preferences.status,
    role: preferences.role === 'all' ? undefined : preferences.role,
    email_status: preferences.emailStatus === 'all' ? undefined : preferences.emailStatus,
    sort: preferences.sort,
    order: preferences.order,
    page: preferences.page,
    limit: preferences.limit,
  };
}

export const hasFilters = (p: UsersPreferences) => !!p.search.trim() || p.status !== 'all' || p.role !== 'all' || p.emailStatus !== 'all';
