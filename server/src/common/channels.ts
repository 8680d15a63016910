/**
 * Release channels, most settled first: a subscriber of one also gets every channel before it. Here rather than in
 * versions/ because licenses and accounts are granted a channel too (as roles are here for every module).
 */
export const CHANNELS = ['stable', 'rc', 'beta', 'alpha'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The channels a subscriber of `channel` gets: `beta` → stable, rc, beta. */
export function channelsUpTo(channel: Channel): Channel[] {
  return CHANNELS.slice(0, CHANNELS.indexOf(channel) + 1);
}
