import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../../common/api-error';

/** Distribution files (File Management upload), in the spec's order. */
export const DISTRIBUTION_EXTENSIONS = ['.exe', '.dmg', '.pkg', '.tar.gz', '.zip', '.deb', '.rpm'] as const;
/** The file of a version upload. */
export const VERSION_EXTENSIONS = ['.zip', '.exe', '.dmg', '.pkg'] as const;

export const FILE_NAME_MAX = 200;
/** Unicode's bidirectional formatting characters (marks, embeddings, overrides, isolates). */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
export const PLEASE_SELECT_A_FILE = 'Please select a file.';

/** The allowed extension a name ends with (longest first, so .tar.gz wins over .gz), or null. */
export function extensionOf(name: string, allowed: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const match = [...allowed].sort((a, b) => b.length - a.length).find((ext) => lower.endsWith(ext));
  return match && lower.length > match.length ? match : null;
}

export function fileTypeNotAllowed(allowed: readonly string[]): ApiError {
  const message = `File type not allowed. Allowed types: ${allowed.join(', ')}`;
  return new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, message, { file: [message] });
}

export function fileTooLarge(maxBytes: number): ApiError {
  const message = `File too large. The maximum upload size is ${formatBytes(maxBytes)}.`;
  return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, message, { file: [message] });
}

/** Bytes, KB, MB, GB (base 1024), as the screens show sizes. */
export function formatBytes(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} Bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * Why a file name is refused, or null when it is fine. Names are shown and offered in Content-Disposition
 * and install commands, never used as a path (stored files get a generated key), but a name that looks like
 * a path or hides control characters is refused outright rather than silently rewritten.
 */
export function fileNameProblem(name: string): string | null {
  if (!name.trim()) return 'File name is required';
  if (name.length > FILE_NAME_MAX) return `File name must be at most ${FILE_NAME_MAX} characters`;
  if (/[/\\]/.test(name) || name.includes('..')) return 'File name must not contain path separators or ".."';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f<>:"|?*]/.test(name)) return 'File name must not contain control characters or any of < > : " | ? *';
  // Right-to-left overrides and their kin reorder what is shown: `a\u202egpj.deb` reads as `abed.jpg`.
  if (BIDI_CONTROLS.test(name)) return 'File name must not contain bidirectional text controls (such as U+202E)';
  if (/^[\s.-]/.test(name) || /\s$/.test(name)) return 'File name must not start with a dot, a hyphen or a space, nor end with a space';
  return null;
}
