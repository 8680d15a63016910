import { ListAdminVersionsSort, type SyncStatus, VersionChannel, VersionState } from '../../../api/generated/model';
import type { ListSpec } from '../../../components/admin-list/list-state';
import type { Sorting } from '../../../components/pagination';
import { PAGE_SIZE } from '../../../lib/admin-tables';
import { CHANNELS } from '../../../lib/channels';

/** Version table: newest first (admin spec section 9). */
export const DEFAULT_SORT: Sorting<ListAdminVersionsSort> = { sort: 'created_at', order: 'desc' };
export { CHANNELS };
/** A version's states, as the server names them. */
export const STATES = Object.values(VersionState);

type VersionFilters = { channel: VersionChannel | 'all'; state: VersionState | 'all' };
export const VERSIONS_LIST: ListSpec<VersionFilters, ListAdminVersionsSort> = {
  defaults: { search: '', channel: 'all', state: 'all', page: 1, limit: PAGE_SIZE, ...DEFAULT_SORT },
  sorts: Object.values(ListAdminVersionsSort),
  choices: { channel: ['all', ...CHANNELS], state: ['all', ...STATES] },
};

/** The channel and state filters as query parameters: 'all' is left out. */
export function versionFilters(filters: VersionFilters) {
  return {
    channel: filters.channel === 'all' ? undefined : filters.channel,
    state: filters.state === 'all' ? undefined : filters.state,
  };
}

export const CHANNEL_COLORS: Record<VersionChannel, string> = { stable: 'teal', rc: 'blue', beta: 'yellow', alpha: 'orange' };
export const STATE_COLORS: Record<VersionState, string> = { draft: 'gray', published: 'green', yanked: 'red' };

/** Hashes and keys are shown by their first 8 characters (admin spec section 9). */
export const SHORT_LENGTH = 8;

/** What a version's own file may be, as the server checks it; used until the server's list has loaded. */
export const VERSION_EXTENSIONS = ['.zip', '.exe', '.dmg', '.pkg'] as const;

/** A semantic version as the server accepts it: 2.1.0, 3.0.0-beta.1, 1.2.3+build.7 (no leading v). */
export const VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-((0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const SYNC_COLORS: Record<SyncStatus, string> = { synced: 'green', local_only: 'gray', pending: 'yellow' };

/** The first 8 characters of a hash or key, or null when there is none ('Not set'). */
export function shortKey(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, SHORT_LENGTH) : null;
}

/** An http(s) URL, as the server accepts it. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}

/** JSON text holding an object, such as {"os": "Ubuntu 22.04", "ram": "4 GB", "storage": "10 GB"}. */
export function isJsonObjectText(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** Today as YYYY-MM-DD in the browser's time zone: the upload form's default release date. */
export function today(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** Empty form text is sent as null ("not set"), everything else trimmed. */
export const orNull = (value: string) => (value.trim() ? value.trim() : null);
