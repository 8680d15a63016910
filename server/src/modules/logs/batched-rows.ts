import { Logger } from '@nestjs/common';
import { IntervalBatch } from '../../database/interval-batch';

/** Held rows are written at least this often, and at once when this many are held. */
const WRITE_EVERY_MS = 1000;
const MAX_HELD_ROWS = 500;

/**
 * Write-behind for log rows nobody waits for (remote-log entries, download rows): held, and written hundreds at a
 * time, where each row's indexes cost far less than a few rows at a time. A failed write keeps its rows for the
 * next try; the owner flushes before it reads the table and at shutdown. `maxBacklog`: see IntervalBatch.
 */
export function writtenBehind<T>(
  write: (rows: T[]) => Promise<void>,
  table: string,
  logger: Logger,
  { maxBacklog, maxHeld = MAX_HELD_ROWS }: { maxBacklog?: number; maxHeld?: number } = {},
): IntervalBatch<T> {
  return new IntervalBatch<T>(
    write,
    WRITE_EVERY_MS,
    (error) => logger.error(`Rows of ${table} not stored yet (kept for the next try): ${(error as Error).message}`),
    maxHeld,
    maxBacklog,
  );
}
