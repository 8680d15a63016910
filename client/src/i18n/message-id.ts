import type en from './en.json';

/** A key of the message catalogs. */
export type MessageId = keyof typeof en;
