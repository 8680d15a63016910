import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * remote_logs keeps only its created_at index. The (license_key, created_at) index put every validation's row at
 * a random place in a second tree, which cost more than half of each insert on the heartbeat path, and no
 * screen reads remote logs by license.
 */
export class RemoteLogIndexes1764400000000 implements MigrationInterface {
  name = 'RemoteLogIndexes1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('remote_logs', 'IDX_remote_logs_license_key_created_at');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'remote_logs',
      new TableIndex({ name: 'IDX_remote_logs_license_key_created_at', columnNames: ['license_key', 'created_at'] }),
    );
  }
}
