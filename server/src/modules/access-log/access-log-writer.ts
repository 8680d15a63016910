import { IntervalBatch } from '../../database/interval-batch';
import { AccessLogRepository } from './access-log.repository';
import { encodeSegments, NewAccessLogRow, SEGMENT_MAX_ROWS } from './access-log-segments';

/** A segment holding fewer rows than this takes the next rows of the process that wrote it (see `writeSegments`). */
export const OPEN_BELOW = 500;
/** Held rows are written at least this often, and at once when a segment's worth is held. */
const WRITE_EVERY_MS = 1000;
/** While the database takes no rows, they wait in memory up to this many; later ones are dropped and counted. */
const MAX_BACKLOG_ROWS = 100_000;

/** The segment this process wrote last, with its rows, while more rows may be appended to it. */
export interface OpenSegment {
  id: number;
  rows: NewAccessLogRow[];
}

/**
 * Stores the rows, in one transaction: appended to `open` (the segment this process wrote last, while it holds
 * fewer than OPEN_BELOW rows: rewritten with them), else in new segments. Resolves to the segment to append the
 * next rows to. So a quiet portal, whose writer stores a few rows a second, still fills segments of hundreds of
 * rows rather than leaving one per second: a list then reads few of them.
 */
export async function writeSegments(
  repository: AccessLogRepository,
  rows: NewAccessLogRow[],
  open: OpenSegment | null,
): Promise<OpenSegment | null> {
  if (open && open.rows.length + rows.length < OPEN_BELOW) {
    const merged = open.rows.concat(rows);
    const segments = encodeSegments(merged);
    if (segments.length === 1) {
      await repository.replace(open.id, segments[0]);
      return { id: open.id, rows: merged };
    }
  }
  const segments = encodeSegments(rows);
  const ids = await repository.insert(segments);
  const last = segments[segments.length - 1];
  if (last.row_count >= OPEN_BELOW) return null;
  return { id: ids[ids.length - 1], rows: rows.slice(rows.length - last.row_count) };
}

/**
 * The access log's writer: nobody waits for an access row, so rows are held and written in batches (a segment
 * each, appended to the last one while it is small); a failed write keeps its rows for the next try. A read that
 * must see every row (an export, a clear) flushes first, and so does shutdown.
 */
export class AccessLogWriter {
  private readonly batch: IntervalBatch<NewAccessLogRow>;
  /** The segment the writer appends to next (see writeSegments). */
  private open: OpenSegment | null = null;

  constructor(
    private readonly repository: AccessLogRepository,
    onError: (error: unknown) => void,
  ) {
    this.batch = new IntervalBatch<NewAccessLogRow>(
      async (rows) => {
        this.open = await writeSegments(this.repository, rows, this.open);
      },
      WRITE_EVERY_MS,
      onError,
      SEGMENT_MAX_ROWS,
      MAX_BACKLOG_ROWS,
    );
  }

  /** Holds the row for the next write; false when it was dropped because too many rows are held. */
  add(row: NewAccessLogRow): boolean {
    return this.batch.add(row);
  }

  /** Rows dropped while the database took none. */
  get dropped(): number {
    return this.batch.dropped;
  }

  /** Resolves once every row held before the call is stored. */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  /** The next rows go to a new segment (the log was cleared). */
  forgetOpen(): void {
    this.open = null;
  }
}
