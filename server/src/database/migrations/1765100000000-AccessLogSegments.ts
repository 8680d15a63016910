import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { ACCESS_LOG_FIELDS, decodeSegment } from '../../modules/access-log/access-log-segments';
import { AccessLogRepository } from '../../modules/access-log/access-log.repository';
import { MAX_LENGTH } from '../column-lengths';
import { dateTimeColumn, idColumn } from '../columns';
import { Param, PreparedSql } from '../prepared-sql';

const isMysql = (queryRunner: QueryRunner) => ['mysql', 'mariadb'].includes(queryRunner.connection.driver.options.type);
/** Rows moved per statement pair. */
const BATCH = 5_000;

/**
 * The access log in segments (see AccessLogSegmentEntity): a request costs the database a 500th of a row and the
 * terms its row adds, instead of a row and two (SQLite) or six (MySQL) index entries. The rows logged so far are
 * moved into segments, in the order they were stored; `down` moves them back.
 */
export class AccessLogSegments1765100000000 implements MigrationInterface {
  name = 'AccessLogSegments1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'access_log_segments',
        columns: [
          idColumn(),
          dateTimeColumn('first_at', false),
          dateTimeColumn('last_at', false),
          { name: 'row_count', type: 'integer' },
          { name: 'errors', type: 'integer' },
          { name: 'warnings', type: 'integer' },
          { name: 'body', type: 'text' },
        ],
        indices: [new TableIndex({ name: 'IDX_access_log_segments_last_at', columnNames: ['last_at'] })],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'access_log_terms',
        columns: [
          { name: 'segment_id', type: 'integer', isPrimary: true },
          { name: 'n', type: 'integer', isPrimary: true },
          { name: 'value', type: 'varchar', length: String(MAX_LENGTH.accessTerm) },
          { name: 'hits', type: 'integer' },
          { name: 'errors', type: 'integer' },
          { name: 'warnings', type: 'integer' },
        ],
        indices: [
          new TableIndex({
            name: 'IDX_access_log_terms_value_segment_id',
            columnNames: ['value', 'segment_id', 'hits', 'errors', 'warnings'],
          }),
        ],
      }),
    );

    const sql = PreparedSql.for(queryRunner.connection);
    const segments = new AccessLogRepository(queryRunner.connection);
    for (let after = 0; ;) {
      const rows: Array<Record<string, unknown>> = await queryRunner.query(
        `SELECT * FROM access_logs WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (!rows.length) break;
      after = Number(rows[rows.length - 1].id);
      const moved = rows.map((row) => ({
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
        created_at: sql.readDate(row.created_at)!,
      }));
      for (const statement of segments.statements(moved)) await queryRunner.query(statement.sql, bind(sql, statement.params));
    }
    await queryRunner.dropTable('access_logs');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const search = isMysql(queryRunner) ? ['ip_address', 'user_email', 'route', 'path'] : [];
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
        indices: [['created_at'], ['status', 'created_at'], ...search.map((column) => [column, 'created_at'])].map(
          (columns) => new TableIndex({ name: `IDX_access_logs_${columns.join('_')}`, columnNames: columns }),
        ),
      }),
    );
    const sql = PreparedSql.for(queryRunner.connection);
    const tuple = `(${ACCESS_LOG_FIELDS.map(() => '?').join(', ')})`;
    for (let after = 0; ;) {
      const segments: Array<{ id: number; body: string }> = await queryRunner.query(
        'SELECT id, body FROM access_log_segments WHERE id > ? ORDER BY id LIMIT 10',
        [after],
      );
      if (!segments.length) break;
      after = Number(segments[segments.length - 1].id);
      for (const segment of segments) {
        const rows = decodeSegment(Number(segment.id), segment.body);
        await queryRunner.query(
          `INSERT INTO access_logs (${ACCESS_LOG_FIELDS.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
          bind(
            sql,
            rows.flatMap((row) => ACCESS_LOG_FIELDS.map((field) => row[field])),
          ),
        );
      }
    }
    await queryRunner.dropTable('access_log_terms');
    await queryRunner.dropTable('access_log_segments');
  }
}

/** Values as the driver takes them from a migration's query (dates as the column stores them). */
function bind(sql: PreparedSql, params: Param[]): unknown[] {
  return params.map((param) => (param instanceof Date ? sql.date(param) : (param ?? null)));
}
