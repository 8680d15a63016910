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
  /** The rows, a batch at a time (keyset paging keeps each batch small). */
  batches: AsyncIterable<T[]>;
  csvValues: (row: T) => unknown[];
  json: (row: T) => unknown;
}

/**
 * Streams an export as a CSV or JSON file download in constant memory: one chunk per batch, waiting for the
 * client when its buffer is full, and giving the event loop a turn between batches, so other requests (a health
 * check, a streaming server's license validation) are answered while a large export runs. Stops when the client goes.
 */
export async function sendExport<T>(
  response: Response,
  { name, format, columns, batches, csvValues, json }: StreamedExport<T>,
): Promise<void> {
  response.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  response.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
  response.setHeader('Cache-Control', 'no-store');
  let first = true;
  response.write(format === 'csv' ? csvRow([...columns]) : '[');
  for await (const batch of batches) {
    let chunk = '';
    for (const row of batch) {
      chunk += format === 'csv' ? csvRow(csvValues(row)) : `${first ? '' : ','}\n${JSON.stringify(json(row))}`;
      first = false;
    }
    if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    if (response.destroyed) return;
    await nextTurn();
  }
  response.end(format === 'csv' ? '' : `${first ? '' : '\n'}]\n`);
}
