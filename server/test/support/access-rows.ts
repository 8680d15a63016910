import type { DataSource } from 'typeorm';
import type { AccessLogRow } from '../../src/modules/access-log/access-log.service';
import type { TestDatabase } from './databases';
import { rowsOf } from './process-database';

const ROWS = 'SELECT * FROM access_logs ORDER BY id';
const date = (value: unknown) => (value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`));
/** Rows as the driver returns them, typed as the list gives them. */
export const typedAccessRows = (rows: Array<Record<string, unknown>>): AccessLogRow[] =>
  rows.map((row) => ({
    id: Number(row.id),
    method: String(row.method),
    route: String(row.route),
    path: String(row.path),
    status: Number(row.status),
    duration_ms: Number(row.duration_ms),
    bytes_out: Number(row.bytes_out),
    user_id: row.user_id === null ? null : Number(row.user_id),
    user_email: row.user_email as string | null,
    ip_address: row.ip_address as string | null,
    user_agent: row.user_agent as string | null,
    created_at: date(row.created_at),
  }));

/** Every access-log row the test app's database holds, in the order stored. */
export async function accessRows(dataSource: DataSource): Promise<AccessLogRow[]> {
  return typedAccessRows(await dataSource.query(ROWS));
}

/** The same, from a portal process's database (see rowsOf). */
export async function accessRowsOf(database: TestDatabase, dataDir: string): Promise<AccessLogRow[]> {
  return typedAccessRows(await rowsOf(database, dataDir, ROWS));
}
