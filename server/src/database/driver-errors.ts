/** What the database drivers (better-sqlite3, mysql2) report, classified once for services and the error filter. */

/** The driver's error code, whether TypeORM wrapped the error (QueryFailedError.driverError) or not. */
export function driverCode(error: unknown): string | undefined {
  return (error as { code?: string; driverError?: { code?: string } })?.driverError?.code ?? (error as { code?: string })?.code;
}

/** A unique index or primary key refused the row (e.g. a taken e-mail, license key or version number). */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign key refused the row: the row it points to went away between the check and the write. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_NO_REFERENCED_ROW';
}

/** MySQL/MariaDB strict mode refusing a value that does not fit its column (too long, out of range, truncated). */
const VALUE_TOO_LONG = new Set([
  'ER_DATA_TOO_LONG',
  'ER_WARN_DATA_OUT_OF_RANGE',
  'WARN_DATA_TRUNCATED',
  'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
]);

export function isValueTooLong(error: unknown): boolean {
  return VALUE_TOO_LONG.has(driverCode(error) ?? '');
}

/** The database cannot be reached or went away: the client may retry, and the pool reconnects by itself. */
const DATABASE_GONE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  return DATABASE_GONE.has(driverCode(error) ?? '') || (error as { fatal?: boolean })?.fatal === true;
}
