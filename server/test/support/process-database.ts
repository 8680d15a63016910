import { createConnection as mysqlConnection } from 'mysql2/promise';
import { join } from 'node:path';
import type { TestDatabase } from './databases';

// better-sqlite3 ships no types; this is all the tests need of it.
type SqliteDatabase = { prepare(sql: string): { all(): unknown[] }; close(): void };
const Database = module.require('better-sqlite3') as new (path: string, options: { readonly: boolean }) => SqliteDatabase;

/** Rows of a query in a portal process's database (MariaDB, or the SQLite file in its DATA_DIR), read from outside it. */
export async function rowsOf(database: TestDatabase, dataDir: string, sql: string): Promise<Array<Record<string, unknown>>> {
  if (database.url) {
    const connection = await mysqlConnection(database.url);
    try {
      return (await connection.query(sql))[0] as Array<Record<string, unknown>>;
    } finally {
      await connection.end();
    }
  }
  const db = new Database(join(dataDir, 'portal.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}
