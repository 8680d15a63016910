import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/** The access log's search indexes: each column with created_at (see AccessLogEntity). */
const ACCESS_LOG_SEARCH_INDEXES = ['ip_address', 'user_email', 'route', 'path'].map(
  (column) => new TableIndex({ name: `IDX_access_logs_${column}_created_at`, columnNames: [column, 'created_at'] }),
);

/**
 * On SQLite the access log keeps only the indexes its queries read: created_at (the list's order) and status with
 * created_at (the level filter). Its searches are LIKE prefixes, and SQLite's LIKE is case-insensitive, so it reads
 * no index of a BINARY column: the four search indexes served no query there, yet every API request's row went
 * into each of them (12.8-12.9 µs per row with the six indexes, 6.3-7.1 with two). MySQL/MariaDB keep them: their
 * searches read them (log-listing.ts).
 */
export class AccessLogSqliteIndexes1765000000000 implements MigrationInterface {
  name = 'AccessLogSqliteIndexes1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    for (const index of ACCESS_LOG_SEARCH_INDEXES) await queryRunner.dropIndex('access_logs', index.name!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    for (const index of ACCESS_LOG_SEARCH_INDEXES) await queryRunner.createIndex('access_logs', index);
  }
}
