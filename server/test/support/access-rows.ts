import type { DataSource } from 'typeorm';
import type { AccessLogRow } from '../../src/modules/access-log/access-log.entity';
import { decodeSegment } from '../../src/modules/access-log/access-log-segments';
import type { TestDatabase } from './databases';
import { rowsOf } from './process-database';

const SEGMENTS = 'SELECT id, body FROM access_log_segments ORDER BY id';
const decoded = (segments: Array<Record<string, unknown>>) => segments.flatMap((s) => decodeSegment(Number(s.id), String(s.body)));

/** Every access-log row the test app's database holds (read out of its segments), in the order stored. */
export async function accessRows(dataSource: DataSource): Promise<AccessLogRow[]> {
  return decoded(await dataSource.query(SEGMENTS));
}

/** The same, from a portal process's database (see rowsOf). */
export async function accessRowsOf(database: TestDatabase, dataDir: string): Promise<AccessLogRow[]> {
  return decoded(await rowsOf(database, dataDir, SEGMENTS));
}
