import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvRow } from './csv';

export type ExportFormat = 'csv' | 'json';

interface StreamedExport<T> {
  /** The download's name without the extension, e.g. `licenses_2026-11-25`. */
  name: string;
  format: ExportFormat;
  /** The CSV header line. */
  columns: readonly string[];
  /** The rows, a batch at a time (keyset paging keeps each batch small): raw database rows, written as they come. */
  batches: AsyncIterable<T[]>;
  /** The row's CSV line, `\r\n` included (csvField for each field). */
  csvLine: (row: T) => string;
  /** The row as JSON text (jsonValue helps): written straight from the raw row, no DTO in between. */
  jsonText: (row: T) => string;
}

/**
 * Streams an export as a CSV or JSON file download in constant memory: one chunk per batch (one read ahead) through
 * `pipeline`, which waits while the client's buffer is full and stops the batches when the client goes. The event loop
 * gets a turn between batches, so other requests are served while a large export runs.
 */
export async function sendExport<T>(
  response: Response,
  { name, format, columns, batches, csvLine, jsonText }: StreamedExport<T>,
): Promise<void> {
  response.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  response.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
  response.setHeader('Cache-Control', 'no-store');
  async function* chunks(): AsyncGenerator<string> {
    let first = true;
    yield format === 'csv' ? csvRow([...columns]) : '[';
    for await (const batch of batches) {
      let chunk = '';
      if (format === 'csv') for (const row of batch) chunk += csvLine(row);
      else
        for (const row of batch) {
          chunk += `${first ? '' : ','}\n${jsonText(row)}`;
          first = false;
        }
      yield chunk;
      await nextTurn();
    }
    if (format === 'json') yield `${first ? '' : '\n'}]\n`;
  }
  try {
    await pipeline(Readable.from(chunks(), { highWaterMark: 1 }), response);
  } catch (error) {
    // The client went: nothing left to send.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  }
}

/** A value as JSON text: strings, numbers, booleans and null (undefined as null). */
export const jsonValue = (value: string | number | boolean | null | undefined): string =>
  value === null || value === undefined ? 'null' : JSON.stringify(value);

/**
 * A raw row's date as ISO 8601: mysql2 reads DATETIME as a Date, better-sqlite3 as TypeORM's UTC text
 * (`2026-11-25 10:00:00.000`), turned into ISO text without a Date in between.
 */
export function isoDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  if (text.length === 23 && text[10] === ' ') return `${text.slice(0, 10)}T${text.slice(11)}Z`;
  return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
}
