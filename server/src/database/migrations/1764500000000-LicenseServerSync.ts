import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * Remote logs pulled from an external license server remember where they came from (the server and its row id),
 * so pulling the same page twice stores each entry once.
 */
export class LicenseServerSync1764500000000 implements MigrationInterface {
  name = 'LicenseServerSync1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('remote_logs', [
      new TableColumn({ name: 'origin', type: 'varchar', length: '255', isNullable: true }),
      new TableColumn({ name: 'origin_id', type: 'integer', isNullable: true }),
    ]);
    await queryRunner.createIndex(
      'remote_logs',
      new TableIndex({ name: 'UQ_remote_logs_origin_origin_id', columnNames: ['origin', 'origin_id'], isUnique: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('remote_logs', 'UQ_remote_logs_origin_origin_id');
    await queryRunner.dropColumns('remote_logs', ['origin_id', 'origin']);
  }
}
