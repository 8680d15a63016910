import { BeforeApplicationShutdown, Logger, OnApplicationShutdown } from '@nestjs/common';
import { IntervalBatch } from '../database/interval-batch';
import type { LogTableRepository } from '../database/log-table';
import { Cache } from './cache';
import { CAPPED_COUNT_TTL_MS, CAPPED_COUNTS_MAX, countPastCap, LogFilters, LogPage, pruneInBatches, RawRow } from './log-listing';

/**
 * Held rows are written at least this often, and at once when MAX_HELD_ROWS are held: at thousands of small
 * downloads a second, a second's rows in one SQLite transaction would hold the event loop while every response waits.
 */
const WRITE_EVERY_MS = 1000;
const MAX_HELD_ROWS = 500;

/** A log that holds rows before storing them: all are stored before shutdown, and again after for late requests. */
export abstract class StoredBeforeShutdown implements BeforeApplicationShutdown, OnApplicationShutdown {
  /** Resolves once every row held so far is stored. */
  abstract flush(): Promise<void>;

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    // Requests that finished while the server closed may have queued more.
    await this.flush().catch(() => undefined);
  }
}

/**
 * A log whose rows nobody waits for (remote-log entries, download and access rows): held, and written hundreds at a
 * time, where each row's indexes cost far less than a few rows at a time, and awaiting a write per request would
 * cost every heartbeat a share of its CPU. A failed write keeps its rows for the next try; every read of the table
 * stores what is held first, and so does shutdown. `maxBacklog`: rows held at most while the database takes none,
 * for a log that may lose rows rather than exhaust memory (later ones are dropped and counted).
 */
export abstract class WrittenBehindLog<Entry, Row, Filters extends LogFilters = LogFilters> extends StoredBeforeShutdown {
  protected readonly writer: IntervalBatch<Entry>;
  /** Counts past COUNT_CAP (see countPastCap), cleared when this service removes rows. */
  private readonly counts = new Cache<number>({ max: CAPPED_COUNTS_MAX, ttlMs: CAPPED_COUNT_TTL_MS });

  protected constructor(
    protected readonly repository: LogTableRepository<Row, Filters>,
    write: (rows: Entry[]) => Promise<void>,
    table: string,
    logger: Logger,
    maxBacklog = Infinity,
  ) {
    super();
    this.writer = new IntervalBatch<Entry>(
      write,
      WRITE_EVERY_MS,
      (error) => logger.error(`Rows of ${table} not stored yet (kept for the next try): ${(error as Error).message}`),
      MAX_HELD_ROWS,
      maxBacklog,
    );
  }

  async list(filters: Filters): Promise<LogPage<Row>> {
    await this.writer.flush();
    return this.repository.page(filters, (key, count) => countPastCap(this.counts, key, count));
  }

  /** Every matching row as the driver returns it, in batches (for exports: see logs/log-export.ts). */
  async *batches(filters: Filters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.repository.batches(filters);
  }

  /** Deletes rows older than `before` in batches; returns how many went. */
  async prune(before: Date): Promise<number> {
    await this.writer.flush();
    return pruneInBatches((batch) => this.repository.deleteOlder(before, batch), this.counts);
  }

  async clear(): Promise<void> {
    await this.writer.flush();
    await this.repository.clear();
    this.counts.clear();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
