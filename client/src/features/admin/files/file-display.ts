import {
  type Architecture,
  type FileStatsDto,
  type FileVersionChoiceDto,
  ListDistributionFilesSort,
  type OsType,
} from '../../../api/generated/model';
import type { ListSpec } from '../../../components/admin-list/list-state';
import type { Sorting } from '../../../components/pagination';
import { PAGE_SIZE } from '../../../lib/admin-tables';

/** Files table: newest first (admin spec section 9). */
export const DEFAULT_SORT: Sorting<ListDistributionFilesSort> = { sort: 'created_at', order: 'desc' };

/** The spec's order of platforms and architectures. */
export const OS_TYPES: OsType[] = ['windows', 'linux', 'macos'];
export const ARCHITECTURES: Architecture[] = ['x64', 'x86', 'arm64'];

/** Hash display: the first 12 characters for files (admin spec section 9). */
export const HASH_CHARS = 12;
export const shortHash = (hash: string | null | undefined) => (hash ?? '').slice(0, HASH_CHARS);

/** Platforms card: how many operating systems have at least one file. */
export const platformCount = (stats: Pick<FileStatsDto, 'files_by_os'>) => stats.files_by_os.filter((row) => row.count > 0).length;

/** The (Latest) and (Stable) marks a version choice carries, in that order. */
export function versionMarks(choice: Pick<FileVersionChoiceDto, 'is_latest' | 'is_stable'>): Array<'latest' | 'stable'> {
  const marks: Array<'latest' | 'stable'> = [];
  if (Number(choice.is_latest) === 1) marks.push('latest');
  if (Number(choice.is_stable) === 1) marks.push('stable');
  return marks;
}

/** Why the chosen file cannot be sent, before anything goes over the wire; null when it may go. */
export function fileProblem(file: File | Blob | null | undefined, maxBytes?: number): 'missing' | 'tooLarge' | null {
  if (!file || file.size === 0) return 'missing';
  if (maxBytes && maxBytes > 0 && file.size > maxBytes) return 'tooLarge';
  return null;
}

type FileFilters = { versionId: string; os: OsType | 'all' };
/** The files list; the version filter takes any id, and one that no longer exists falls back to All Versions on the page. */
export const FILES_LIST: ListSpec<FileFilters, ListDistributionFilesSort> = {
  defaults: { search: '', versionId: 'all', os: 'all', page: 1, limit: PAGE_SIZE, ...DEFAULT_SORT },
  sorts: Object.values(ListDistributionFilesSort),
  choices: { os: ['all', ...OS_TYPES] },
};

/** The list and stats filters as query parameters: 'all' and blank values are left out. */
export function listFilters(filters: { search: string; versionId: string; os: OsType | 'all' }) {
  const versionId = Number.parseInt(filters.versionId, 10);
  return {
    search: filters.search.trim() || undefined,
    version_id: Number.isInteger(versionId) && versionId > 0 ? versionId : undefined,
    os_type: filters.os === 'all' ? undefined : filters.os,
  };
}

/** An upload counts as done only when the answer says so (success or data); otherwise it failed (admin spec section 5). */
export const uploadSucceeded = (body: { success?: boolean; data?: unknown } | null | undefined) => !!(body && (body.success || body.data));

/**
 * How a failed upload reads (admin spec section 8): no connection at all is the network message, 413 and 415 are
 * the spec's 'File too large…' and 'File type not supported by server.', anything else the server's own words.
 */
export function uploadFailure(
  error: { status?: number; message?: string } | null | undefined,
): { kind: 'network' | 'tooLarge' | 'unsupported' } | { kind: 'server'; message: string } {
  if (error?.status === 0) return { kind: 'network' };
  if (error?.status === 413) return { kind: 'tooLarge' };
  if (error?.status === 415) return { kind: 'unsupported' };
  return { kind: 'server', message: error?.message || '' };
}

/** A version as the filter and the upload form offer it: v{version} plus (Latest) and (Stable). */
export function versionChoiceLabel(
  intl: {
    formatMessage: (
      descriptor: { id: 'admin.files.versionLabel' | 'admin.files.mark.latest' | 'admin.files.mark.stable' },
      values?: Record<string, string>,
    ) => string;
  },
  choice: Pick<FileVersionChoiceDto, 'version' | 'is_latest' | 'is_stable'>,
): string {
  return [
    intl.formatMessage({ id: 'admin.files.versionLabel' }, { version: choice.version }),
    ...versionMarks(choice).map((mark) =>
      intl.formatMessage({ id: mark === 'latest' ? 'admin.files.mark.latest' : 'admin.files.mark.stable' }),
    ),
  ].join(' ');
}
