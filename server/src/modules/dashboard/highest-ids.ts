import { PreparedSql } from '../../database/prepared-sql';
import type { Fingerprint } from './background-figures';

/**
 * The highest ids of the tables figures count, as a fingerprint: whether rows were added since the figures were
 * made. Only MAX(id) of each (one index lookup), no rows: the counting itself stays with the modules that own them.
 */
export function highestIds(sql: PreparedSql, tables: string[]): Fingerprint {
  return async () => {
    const row = await sql.one<Record<string, unknown>>(
      `SELECT ${tables.map((table, i) => `(SELECT MAX(id) FROM ${sql.quote(table)}) AS t${i}`).join(', ')}`,
      [],
    );
    return tables.map((_table, i) => String(row?.[`t${i}`] ?? '')).join(',');
  };
}
