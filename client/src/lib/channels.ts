import { VersionChannel } from '../api/generated/model';

/** Release channels, most settled first; one granted includes every channel before it. */
export const CHANNELS = Object.values(VersionChannel);
