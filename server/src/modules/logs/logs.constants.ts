/** What other modules may know of the logs module's vocabulary, without reaching into its entities. */

export const LOG_LEVELS = ['error', 'warning', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DOWNLOAD_CHANNELS = ['session', 'link'] as const;
export type DownloadChannel = (typeof DOWNLOAD_CHANNELS)[number];
