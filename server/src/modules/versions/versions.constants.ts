/** The platforms a version ships for: what its distribution files are made for, and what uploads accept. */
export const OS_TYPES = ['windows', 'linux', 'macos'] as const;
export type OsType = (typeof OS_TYPES)[number];
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

/** Release channels, most settled first: a subscriber of one also gets every channel before it. */
export const CHANNELS = ['stable', 'rc', 'beta', 'alpha'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The channels a subscriber of `channel` gets: `beta` → stable, rc, beta. */
export function channelsUpTo(channel: Channel): Channel[] {
  return CHANNELS.slice(0, CHANNELS.indexOf(channel) + 1);
}

/** draft: admins only; published: in the catalog; yanked: gone from the catalog, old links work a day longer. */
export const VERSION_STATES = ['draft', 'published', 'yanked'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** How long a signed link made before a yank keeps working after it. */
export const YANKED_LINK_GRACE_MS = 24 * 60 * 60 * 1000;
