import { createHash } from 'node:crypto';

/** A release's staged rollout. */
export interface Rollout {
  /** The share of servers offered it, 0 to 100. */
  rollout_percent: number;
  /** Offered to no server while paused. */
  rollout_paused: boolean;
}

/**
 * A server's place in every rollout, 0 to 99, from a hash of its id: the same server always gets the same answer,
 * and raising a percentage keeps every server it reached before.
 */
export function rolloutBucket(serverUid: string): number {
  return createHash('sha256').update(serverUid).digest().readUInt32BE(0) % 100;
}

/** Whether the update API offers the release to this server (null: a caller that named none, reached only when every server is). */
export function offeredTo(release: Rollout, serverUid: string | null): boolean {
  if (release.rollout_paused) return false;
  if (release.rollout_percent >= 100) return true;
  return serverUid !== null && rolloutBucket(serverUid) < release.rollout_percent;
}
