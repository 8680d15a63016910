import { gt, satisfies } from 'semver';
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
 * The releases a server may move to, newest first: of the covered ones (newest semantic version first), those of the
 * channels it follows, within its constraint (prereleases count: a beta follower's `4.x` takes 4.4.0-beta.1), and
 * above the version it runs.
 */
export function updateCandidates<R extends Candidate>(covered: R[], wish: UpdateWish): R[] {
  const channels = channelsUpTo(wish.channel);
  return covered.filter(
    (release) =>
      channels.includes(release.channel) &&
      (wish.constraint === null || satisfies(release.version, wish.constraint, { includePrerelease: true })) &&
      (wish.current === null || gt(release.version, wish.current)),
  );
}
