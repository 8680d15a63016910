import type { DataSource } from 'typeorm';

/**
 * The SQLite file a data source opens, or null: another engine, or a database in memory. Connections of the
 * portal's own beside TypeORM's (the checkpointer, the off-loop reads, PreparedSql's bulk reads) open this file.
 */
export function sqliteFile(dataSource: DataSource): string | null {
  const { type, database } = dataSource.options;
  if (type !== 'better-sqlite3') return null;
  const path = String(database ?? '');
  return path && path !== ':memory:' && !path.startsWith('file::memory:') ? path : null;
}
