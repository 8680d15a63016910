import type { IntlShape } from 'react-intl';
import type { Architecture, DistributionFileDto, OsType } from '../../api/generated/model';
import { ApiError } from '../../api/http-client';
import type { MessageId } from '../../i18n/message-id';
import { localizeServerMessage } from '../../lib/server-messages';

/** Message ids of the operating systems and architectures the server knows. */
export const OS_LABEL: Record<OsType, MessageId> = {
  linux: 'dashboard.downloads.os.linux',
  windows: 'dashboard.downloads.os.windows',
  macos: 'dashboard.downloads.os.macos',
};

export const ARCHITECTURE_LABEL: Record<Architecture, MessageId> = {
  x64: 'dashboard.downloads.arch.x64',
  arm64: 'dashboard.downloads.arch.arm64',
  x86: 'dashboard.downloads.arch.x86',
};

const OS_ORDER: OsType[] = ['linux', 'windows', 'macos'];
const ARCHITECTURE_ORDER: Architecture[] = ['x64', 'arm64', 'x86'];
/** Linux files whose install the package manager does (the server's install_command), best first. */
const LINUX_PACKAGES = ['.deb', '.rpm', '.tar.gz', '.zip'];

/** The visitor's operating system from the browser's user agent, or null when it is none we ship for. */
export function browserOs(userAgent: string): OsType | null {
  if (/android|cros/i.test(userAgent)) return null;
  if (/windows/i.test(userAgent)) return 'windows';
  if (/iphone|ipad|ipod/i.test(userAgent)) return null;
  if (/mac os x|macintosh/i.test(userAgent)) return 'macos';
  if (/linux|x11/i.test(userAgent)) return 'linux';
  return null;
}

export const isLinuxFile = (file: Pick<DistributionFileDto, 'os_type'>) => file.os_type === 'linux';

const rank = <T>(order: readonly T[], value: T) => {
  const index = order.indexOf(value);
  return index === -1 ? order.length : index;
};

const packageRank = (fileName: string) => {
  const lower = fileName.toLowerCase();
  const index = LINUX_PACKAGES.findIndex((ending) => lower.endsWith(ending));
  return index === -1 ? LINUX_PACKAGES.length : index;
};

/** A version's files in a stable order: the visitor's OS first, then Linux, Windows, macOS; x64, ARM64, x86; then by name. */
export function sortFiles(files: DistributionFileDto[], preferredOs: OsType | null = null): DistributionFileDto[] {
  const osRank = (os: OsType) => (os === preferredOs ? -1 : rank(OS_ORDER, os));
  return [...files].sort(
    (a, b) =>
      osRank(a.os_type) - osRank(b.os_type) ||
      rank(ARCHITECTURE_ORDER, a.architecture) - rank(ARCHITECTURE_ORDER, b.architecture) ||
      packageRank(a.file_name) - packageRank(b.file_name) ||
      a.file_name.localeCompare(b.file_name),
  );
}

/** The Linux files an Auto-install command is offered for, best first (x64 before ARM64, .deb before .rpm before archives). */
export function linuxFiles(files: DistributionFileDto[]): DistributionFileDto[] {
  return sortFiles(files.filter(isLinuxFile));
}

/** The release date (YYYY-MM-DD, a calendar day) as a Date at UTC midnight, to be shown in UTC so the day never shifts. */
export function releaseDay(releaseDate: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(releaseDate);
  if (!match) return null;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** Whole minutes from now until an expiry (at least 0), for 'valid for N minutes'. */
export function minutesLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.round((new Date(expiresAt).getTime() - now) / 60_000));
}

/**
 * What a failed download or install-command call says: 'Authentication required for downloads.' without a valid
 * session, 'Download failed: {status}' when the server gave no message, else the given message with the server's words.
 */
export function downloadFailure(
  intl: IntlShape,
  error: unknown,
  id: 'dashboard.downloads.errors.download' | 'dashboard.downloads.errors.command',
): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return intl.formatMessage({ id: 'dashboard.downloads.errors.auth' });
    if (error.status > 0 && error.message.startsWith(`HTTP ${error.status}`))
      return intl.formatMessage({ id: 'dashboard.downloads.errors.status' }, { status: error.status });
  }
  const message = error instanceof Error ? error.message : String(error);
  return intl.formatMessage({ id }, { message: localizeServerMessage(intl, message) });
}
