import { MigrationInterface, QueryRunner } from 'typeorm';
import { createAccessLogTable, createSegmentTables, moveSegmentsToTable, moveTableToSegments } from './access-log-shapes';

/**
 * The access log in segments: batches of rows stored as one row each, with a term per searchable value, instead of
 * one row and its index entries per request. The rows logged so far move into segments in the order they were
 * stored, a segment each (the code that batched them is gone: AccessLogTable moves them back into one table);
 * `down` moves them back.
 */
export class AccessLogSegments1765100000000 implements MigrationInterface {
  name = 'AccessLogSegments1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createSegmentTables(queryRunner);
    await moveTableToSegments(queryRunner);
    await queryRunner.dropTable('access_logs');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await createAccessLogTable(queryRunner);
    await moveSegmentsToTable(queryRunner);
    await queryRunner.dropTable('access_log_terms');
    await queryRunner.dropTable('access_log_segments');
  }
}
