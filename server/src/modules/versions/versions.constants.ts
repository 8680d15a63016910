/** The platforms a version ships for: what its distribution files are made for, and what uploads accept. */
export const OS_TYPES = ['windows', 'linux', 'macos'] as const;
export type OsType = (typeof OS_TYPES)[number];
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];
