/** The platforms a version ships for: what its distribution files are made for, and what uploads accept. */
export const OS_TYPES = ['windows', 'linux', 'macos'] as const;
export type OsType = (typeof OS_TYPES)[number];
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

export { CHANNELS, type Channel, channelsUpTo } from '../../common/channels';

/** draft: admins only; published: in the catalog; yanked: gone from the catalog, old links work a day longer. */
export const VERSION_STATES = ['draft', 'published', 'yanked'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** How long a signed link made before a yank keeps working after it. */
export const YANKED_LINK_GRACE_MS = 24 * 60 * 60 * 1000;
