import type { Response } from 'express';
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
 * Streams an export as a CSV or JSON file download in constant memory: one chunk per batch, waiting for the
 * client when its buffer is full, and giving the event loop a turn between batches (the only place an export
 * yields), so other requests (a health check, a streaming server's license validation) are answered while a large
 * export runs. Stops when the client goes. Written by hand, not through `Readable.from` and `pipeline`: those held
 * more of the export in memory, past bench:exports' target (docs/ARCHITECTURE.md, Where we leave the framework).
 */
export async function sendExport<T>(
  response: Response,
  { name, format, columns, batches, csvLine, jsonText }: StreamedExport<T>,
): Promise<void> {
  response.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  response.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
  response.setHeader('Cache-Control', 'no-store');
  let first = true;
  response.write(format === 'csv' ? csvRow([...columns]) : '[');
  for await (const batch of batches) {
    let chunk = '';
    if (format === 'csv') for (const row of batch) chunk += csvLine(row);
    else
      for (const row of batch) {
        chunk += `${first ? '' : ','}\n${jsonText(row)}`;
        first = false;
      }
    if (!response.write(chunk)) await drained(response);
    if (response.destroyed) return;
    await nextTurn();
  }
  response.end(format === 'csv' ? '' : `${first ? '' : '\n'}]\n`);
}

/** Resolves when the client has taken what was buffered, or has gone. */
function drained(response: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
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
