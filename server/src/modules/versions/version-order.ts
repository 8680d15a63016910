import { parse } from 'semver';
import { MAX_LENGTH } from '../../database/column-lengths';

/** Width of each numeric part in the sort key: 10 digits fit any version part used in practice. */
const PART = 10;

/**
 * A key that sorts as semantic versions do, so SQL can ORDER BY it: major.minor.patch zero-padded, then 1 for a
 * release (above its prereleases) or 0 and the prerelease identifiers (numbers padded, words as they are).
 * A string that is not a semantic version gets '' and sorts lowest.
 */
export function versionOrder(version: string): string {
  const parsed = parse(version);
  if (!parsed) return '';
  const numbers = [parsed.major, parsed.minor, parsed.patch].map((n) => String(n).padStart(PART, '0')).join('.');
  if (!parsed.prerelease.length) return `${numbers}.1`;
  // semver puts numeric identifiers below words: numbers get the prefix '0', words '1'.
  const pre = parsed.prerelease.map((part) => (typeof part === 'number' ? `0${String(part).padStart(PART, '0')}` : `1${part}`));
  // A column-sized cut of a pathological prerelease still sorts it among its release's prereleases.
  return `${numbers}.0.${pre.join('.')}`.slice(0, MAX_LENGTH.versionOrder);
}
