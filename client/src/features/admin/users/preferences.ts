import type { ListUsersParams, ListUsersSort } from '../../../api/generated/model';
import { ListSpec, ListState, loadListState, saveListState } from '../../../components/admin-list/list-state';

export const USERS_PREFERENCES_KEY = 'admin_users_preferences';
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

type UsersFilters = {
  status: 'all' | 'active' | 'inactive';
  role: 'all' | 'admin' | 'client' | 'moderator';
  emailStatus: 'all' | 'verified' | 'unverified';
};
export type UsersPreferences = ListState<UsersFilters, ListUsersSort>;

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

/** The users list: 10 rows, newest first, filters, page, size and sort kept in the URL and in localStorage (admin spec section 9). */
export const USERS_LIST: ListSpec<UsersFilters, ListUsersSort> = {
  defaults: DEFAULT_PREFERENCES,
  sorts: ['name', 'role', 'status', 'is_verified', 'last_login', 'created_at'],
  pageSizes: PAGE_SIZES,
  choices: {
    status: ['all', 'active', 'inactive'],
    role: ['all', 'admin', 'client', 'moderator'],
    emailStatus: ['all', 'verified', 'unverified'],
  },
  storageKey: USERS_PREFERENCES_KEY,
};

/** Filters, page, page size and sort as last left, ignoring anything stored that no longer fits. */
export const loadPreferences = (): UsersPreferences => loadListState(USERS_PREFERENCES_KEY, USERS_LIST);

export const savePreferences = (preferences: UsersPreferences): void => saveListState(USERS_PREFERENCES_KEY, preferences);

/** The list query the server gets: 'all' means no filter. */
export function toListParams(preferences: UsersPreferences, search = preferences.search): ListUsersParams {
  return {
    search: search.trim() || undefined,
    status: preferences.status === 'all' ? undefined : preferences.status,
    role: preferences.role === 'all' ? undefined : preferences.role,
    email_status: preferences.emailStatus === 'all' ? undefined : preferences.emailStatus,
    sort: preferences.sort,
    order: preferences.order,
    page: preferences.page,
    limit: preferences.limit as ListUsersParams['limit'],
  };
}
