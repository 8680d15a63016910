import { gt, satisfies, SemVer } from 'semver';
import { type Channel, channelsUpTo } from '../versions/versions.constants';

/** What of a covered release decides whether a server is offered it. */
export interface Candidate {
  version: string;
  channel: Channel;
}

/** What a streaming server asks for. */
export interface UpdateWish {
  /** The version it runs; null: any release it may have. */
  current: string | null;
  /** The channel it follows (it gets that and the steadier ones). */
  channel: Channel;
  /** A semver range the release must be in; null: any. */
  constraint: string | null;
}

/**
 * The newest release a server may move to: of the covered ones (newest semantic version first), the first of the
 * channels it follows, within its constraint (prereleases count: a beta follower's `4.x` takes 4.4.0-beta.1), above
 * the version it runs, and `wanted` (its rollout reaches the server, it has a build for its platform). Null when none.
 * The list is read newest first and no further than the version the server runs.
 */
export function nextRelease<R extends Candidate>(covered: R[], wish: UpdateWish, wanted: (release: R) => boolean): R | null {
  const channels = channelsUpTo(wish.channel);
  const current = wish.current === null ? null : new SemVer(wish.current);
  for (const release of covered) {
    if (current && !gt(release.version, current)) return null;
    if (!channels.includes(release.channel)) continue;
    if (wish.constraint !== null && !satisfies(release.version, wish.constraint, { includePrerelease: true })) continue;
    if (wanted(release)) return release;
  }
  return null;
}
