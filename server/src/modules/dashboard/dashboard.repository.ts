import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedSql } from '../../database/prepared-sql';

/**
 * What the dashboard reads of the database itself (it owns no table): the engine's version and size, and the
 * highest ids of the tables its figures count. The counting itself stays with the modules that own the tables.
 */
@Injectable()
export class DashboardRepository {
  private readonly sql: PreparedSql;

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
  }

  /**
   * The highest ids of these tables, as one string: unchanged means no row was added since (only MAX(id) of each,
   * one index lookup, no rows).
   */
  async highestIds(tables: string[]): Promise<string> {
    const row = await this.sql.one<Record<string, unknown>>(
      `SELECT ${tables.map((table, i) => `(SELECT MAX(id) FROM ${this.sql.quote(table)}) AS t${i}`).join(', ')}`,
      [],
    );
    return tables.map((_table, i) => String(row?.[`t${i}`] ?? '')).join(',');
  }

  /** The engine's version (a statement's round trip: it throws when the database does not respond). */
  async version(): Promise<string | null> {
    const row = await this.sql.one<{ v: string }>(
      this.sql.engine === 'sqlite' ? 'SELECT sqlite_version() AS v' : 'SELECT VERSION() AS v',
      [],
    );
    return row?.v ?? null;
  }

  /** Data and indexes of the database on MySQL/MariaDB, in bytes (information_schema sums them slowly at size). */
  async mysqlSize(): Promise<number | null> {
    const row = await this.sql.one<{ size: number | string | null }>(
      'SELECT SUM(data_length + index_length) AS size FROM information_schema.TABLES WHERE table_schema = DATABASE()',
      [],
    );
    return row?.size === null || row?.size === undefined ? null : Number(row.size);
  }
}
