import { MigrationInterface, QueryRunner } from 'typeorm';
import { createAccessLogTable, createSegmentTables, moveSegmentsToTable, moveTableToSegments } from './access-log-shapes';

/**
 * The access log in one table again, one row per request (see AccessLogEntity), as before AccessLogSegments: the
 * rows held in segments move into access_logs in the order they were stored, and the segments and their terms go.
 * `down` moves the rows back, a segment each.
 */
export class AccessLogTable1765400000000 implements MigrationInterface {
  name = 'AccessLogTable1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createAccessLogTable(queryRunner);
    await moveSegmentsToTable(queryRunner);
    await queryRunner.dropTable('access_log_terms');
    await queryRunner.dropTable('access_log_segments');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await createSegmentTables(queryRunner);
    await moveTableToSegments(queryRunner);
    await queryRunner.dropTable('access_logs');
  }
}
