import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn } from '../columns';

const isMysql = (queryRunner: QueryRunner) => ['mysql', 'mariadb'].includes(queryRunner.connection.driver.options.type);

/**
 * What operators read: the audit trail, the access log, daily figures for charts (downloads counted from the
 * download log so far), and the runs of scheduled jobs. The audit trail's messages get a full-text index
 * (MariaDB FULLTEXT, SQLite FTS5 with trigrams), so searching it does not scan it.
 */
export class Operations1764600000000 implements MigrationInterface {
  name = 'Operations1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const index = (table: string, columns: string[], unique = false) =>
      new TableIndex({ name: `${unique ? 'UQ' : 'IDX'}_${table}_${columns.join('_')}`, columnNames: columns, isUnique: unique });

    await queryRunner.createTable(
      new Table({
        name: 'audit_logs',
        columns: [
          idColumn(),
          { name: 'level', type: 'varchar', length: '10' },
          { name: 'action', type: 'varchar', length: '64' },
          { name: 'message', type: 'varchar', length: '500' },
          { name: 'actor_id', type: 'integer', isNullable: true },
          { name: 'actor_email', type: 'varchar', length: '255', isNullable: true },
          { name: 'target_type', type: 'varchar', length: '32', isNullable: true },
          { name: 'target_id', type: 'varchar', length: '64', isNullable: true },
          { name: 'ip_address', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_agent', type: 'varchar', length: '500', isNullable: true },
          { name: 'context', type: 'text', isNullable: true },
          dateTimeColumn('created_at', false),
        ],
        indices: [
          index('audit_logs', ['created_at']),
          index('audit_logs', ['level', 'created_at']),
          index('audit_logs', ['actor_email', 'created_at']),
          index('audit_logs', ['action', 'created_at']),
          index('audit_logs', ['ip_address', 'created_at']),
        ],
      }),
    );
    if (isMysql(queryRunner)) {
      await queryRunner.query('CREATE FULLTEXT INDEX `FT_audit_logs_message` ON `audit_logs` (`message`)');
    } else {
      await queryRunner.query(
        `CREATE VIRTUAL TABLE "audit_logs_fts" USING fts5(message, content='audit_logs', content_rowid='id', tokenize='trigram')`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "audit_logs_fts_insert" AFTER INSERT ON "audit_logs" BEGIN ` +
          `INSERT INTO "audit_logs_fts"(rowid, message) VALUES (new.id, new.message); END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "audit_logs_fts_delete" AFTER DELETE ON "audit_logs" BEGIN ` +
          `INSERT INTO "audit_logs_fts"("audit_logs_fts", rowid, message) VALUES ('delete', old.id, old.message); END`,
      );
    }

    await queryRunner.createTable(
      new Table({
        name: 'access_logs',
        columns: [
          idColumn(),
          { name: 'method', type: 'varchar', length: '10' },
          { name: 'route', type: 'varchar', length: '150' },
          { name: 'path', type: 'varchar', length: '500' },
          { name: 'status', type: 'smallint' },
          { name: 'duration_ms', type: 'integer' },
          { name: 'bytes_out', type: 'integer' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'user_email', type: 'varchar', length: '255', isNullable: true },
          { name: 'ip_address', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_agent', type: 'varchar', length: '500', isNullable: true },
          dateTimeColumn('created_at', false),
        ],
        indices: [
          index('access_logs', ['created_at']),
          index('access_logs', ['status', 'created_at']),
          index('access_logs', ['ip_address', 'created_at']),
          index('access_logs', ['user_email', 'created_at']),
          index('access_logs', ['route', 'created_at']),
          index('access_logs', ['path', 'created_at']),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'daily_stats',
        columns: [
          idColumn(),
          { name: 'day', type: 'varchar', length: '10' },
          { name: 'metric', type: 'varchar', length: '32' },
          { name: 'dimension', type: 'varchar', length: '100', default: "''" },
          { name: 'value', type: 'bigint' },
        ],
        indices: [index('daily_stats', ['day', 'metric', 'dimension'], true), index('daily_stats', ['metric', 'day'])],
      }),
    );
    // Downloads logged before this release, counted per day, version, OS and architecture.
    const day = isMysql(queryRunner) ? "DATE_FORMAT(created_at, '%Y-%m-%d')" : 'substr(created_at, 1, 10)';
    const dimension = isMysql(queryRunner)
      ? "LEFT(CONCAT(COALESCE(version, ''), '|', COALESCE(os_type, ''), '|', COALESCE(architecture, '')), 100)"
      : "substr(COALESCE(version, '') || '|' || COALESCE(os_type, '') || '|' || COALESCE(architecture, ''), 1, 100)";
    await queryRunner.query(
      `INSERT INTO daily_stats (day, metric, dimension, value) SELECT ${day}, 'downloads', ${dimension}, COUNT(*) ` +
        `FROM download_logs GROUP BY ${day}, ${dimension}`,
    );

    await queryRunner.createTable(
      new Table({
        name: 'scheduled_jobs',
        columns: [
          { name: 'name', type: 'varchar', length: '64', isPrimary: true },
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          dateTimeColumn('lease_until'),
          dateTimeColumn('last_started_at'),
          dateTimeColumn('last_finished_at'),
          { name: 'last_duration_ms', type: 'integer', isNullable: true },
          { name: 'last_outcome', type: 'varchar', length: '10', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          { name: 'runs', type: 'integer', default: 0 },
          { name: 'failures', type: 'integer', default: 0 },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('scheduled_jobs');
    await queryRunner.dropTable('daily_stats');
    await queryRunner.dropTable('access_logs');
    if (!isMysql(queryRunner)) {
      await queryRunner.query('DROP TRIGGER IF EXISTS "audit_logs_fts_insert"');
      await queryRunner.query('DROP TRIGGER IF EXISTS "audit_logs_fts_delete"');
      await queryRunner.query('DROP TABLE IF EXISTS "audit_logs_fts"');
    }
    await queryRunner.dropTable('audit_logs');
  }
}
