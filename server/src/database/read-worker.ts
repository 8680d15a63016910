/**
 * The read worker of OffLoopReads: its own read-only connection to the portal's SQLite file (WAL lets it read beside
 * the writer and see every commit), running one statement at a time.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface ReadRequest {
  id: number;
  sql: string;
  params: unknown[];
}

export interface ReadResponse {
  id: number;
  rows?: unknown[];
  error?: string;
}

/** Prepared statements kept at most: the reads are a few shapes of count and aggregate. */
const STATEMENTS_KEPT = 200;

const { path } = workerData as { path: string };
const db = new Database(path, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -65536');
const statements = new Map<string, Database.Statement>();

parentPort!.on('message', ({ id, sql, params }: ReadRequest) => {
  let response: ReadResponse;
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size < STATEMENTS_KEPT) statements.set(sql, statement);
    }
    response = { id, rows: statement.all(...params) };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
