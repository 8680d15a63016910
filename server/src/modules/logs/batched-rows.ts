import { Logger } from '@nestjs/common';
import { IntervalBatch } from '../../database/interval-batch';
import { Param, PreparedSql } from '../../database/prepared-sql';

/** Held rows are written at least this often, and at once when this many are held. */
const WRITE_EVERY_MS = 1000;
const MAX_HELD_ROWS = 500;

/**
 * Write-behind for log rows nobody waits for (access rows, remote-log entries): held, and written hundreds at a
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

/** `writtenBehind` for rows inserted as they are: the objects' `columns`, as multi-row INSERTs. */
export function batchedRows<T>(
  sql: PreparedSql,
  table: string,
  columns: Array<keyof T & string>,
  logger: Logger,
  maxBacklog?: number,
): IntervalBatch<T> {
  return writtenBehind<T>(
    (rows) =>
      sql.insertMany(
        table,
        columns,
        rows.map((row) => columns.map((column) => row[column] as Param)),
      ),
    table,
    logger,
    { maxBacklog },
  );
}
