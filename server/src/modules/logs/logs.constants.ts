/** What other modules may know of the logs module's vocabulary, without reaching into its entities. */

export { LOG_LEVELS, type LogLevel } from '../../common/log-listing';

export const DOWNLOAD_CHANNELS = ['session', 'link'] as const;
export type DownloadChannel = (typeof DOWNLOAD_CHANNELS)[number];
