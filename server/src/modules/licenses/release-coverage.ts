import { gt, lt, valid } from 'semver';
import { CHANNELS, type Channel, channelsUpTo } from '../versions/versions.constants';

/** What one license grants its owner: it counts while active or expired (not revoked, not pending). */
export interface Grant {
  /** The license's channel, or its owner's where that goes further. */
  channel: Channel;
  /** Releases published up to this instant are covered: the license's updates_until, else its expiry. */
  updatesUntil: Date;
}

/** What of a release decides whether it is covered. */
export interface Release {
  version: string;
  channel: Channel;
  published_at: Date | null;
}

/** Why a customer may not download a release (the `code` of the 403). */
export const DOWNLOAD_REFUSALS = ['CHANNEL_NOT_GRANTED', 'UPDATES_ENDED', 'LICENSE_REQUIRED'] as const;
export type DownloadRefusal = (typeof DOWNLOAD_REFUSALS)[number];

export interface ReleaseAccess {
  /** A license of the customer covers it: its channel is granted and it was published before the updates ended. */
  covered: boolean;
  /** Licenses grant its channel, but their updates ended before it was published: renewing would cover it. */
  renew: boolean;
  /** Why it may not be downloaded; null when it may. */
  refusal: DownloadRefusal | null;
}

/** The later of two channels (beta after rc after stable). */
export const widerChannel = (a: Channel, b: Channel): Channel => (CHANNELS.indexOf(a) >= CHANNELS.indexOf(b) ? a : b);

/**
 * Which releases a customer's licenses cover, and what they may download: a published stable release is open to
 * every verified customer (to try it before a trial or a purchase) unless the vendor requires a license for every
 * download; any other needs a license that covers it.
 */
export function releaseAccess(grants: Grant[], release: Release, requireLicense: boolean): ReleaseAccess {
  const inChannel = grants.filter((grant) => grantsChannel(grant, release));
  const covered = coveredBy(inChannel, release);
  const renew = !covered && inChannel.length > 0;
  const open = release.channel === 'stable' && !requireLicense;
  const refusal: DownloadRefusal | null =
    covered || open ? null : renew ? 'UPDATES_ENDED' : release.channel !== 'stable' ? 'CHANNEL_NOT_GRANTED' : 'LICENSE_REQUIRED';
  return { covered, renew, refusal };
}

const grantsChannel = (grant: Grant, release: Pick<Release, 'channel'>) => channelsUpTo(grant.channel).includes(release.channel);

/** Whether a license covers the release: its channel is granted, and it was published before the updates ended. */
export function coveredBy(grants: Grant[], release: Omit<Release, 'version'>): boolean {
  const published = release.published_at?.getTime() ?? Number.POSITIVE_INFINITY;
  return grants.some((grant) => grantsChannel(grant, release) && grant.updatesUntil.getTime() >= published);
}

/** What validate tells a streaming server about the release it runs. */
export interface UpdateAdvice {
  /** The newest release the license covers; null while it covers none. */
  newestCovered: string | null;
  /** The newest covered release above the one the server runs; null when it runs that or a later one, or did not say. */
  updateAvailable: string | null;
  /** It runs a release below the product's minimum supported version. */
  updateRequired: boolean;
  /** It runs a published release that the license does not cover (published after its updates ended, or in a channel not granted). */
  notCovered: boolean;
}

/**
 * The advice for a server running `running` (the version it sent; null when it sent none) under these grants.
 * `releases` are the published ones, newest semantic version first; `minSupported` is '' when there is no minimum;
 * `offered` says which releases the server's staged rollouts reach.
 */
export function updateAdvice<R extends Release>(
  grants: Grant[],
  releases: R[],
  running: string | null | undefined,
  minSupported: string,
  offered: (release: R) => boolean = () => true,
): UpdateAdvice {
  const newest = releases.find((release) => coveredBy(grants, release)) ?? null;
  // What the server may move to: a release in a staged rollout only where the rollout reaches it.
  const next = releases.find((release) => coveredBy(grants, release) && offered(release)) ?? null;
  const known = running ? valid(running) : null;
  const current = running ? releases.find((release) => release.version === running) : undefined;
  return {
    newestCovered: newest?.version ?? null,
    updateAvailable: next && known && gt(next.version, known) ? next.version : null,
    updateRequired: !!(minSupported && known && lt(known, minSupported)),
    notCovered: !!current && !coveredBy(grants, current),
  };
}

/** The 403's message for a refusal. */
export function refusalMessage(refusal: DownloadRefusal, release: Release): string {
  switch (refusal) {
    case 'CHANNEL_NOT_GRANTED':
      return `Version ${release.version} is a ${release.channel} release, and none of your licenses includes the ${release.channel} channel. Ask the vendor for access.`;
    case 'UPDATES_ENDED':
      return `The updates of your licenses ended before version ${release.version} was published: renew a license to download it.`;
    case 'LICENSE_REQUIRED':
      return `Downloads need a license: take a trial or buy a license to download version ${release.version}.`;
  }
}
