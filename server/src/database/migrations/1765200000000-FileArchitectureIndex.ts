import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const ARCHITECTURE = new TableIndex({
  name: 'IDX_distribution_files_architecture_created_at',
  columnNames: ['architecture', 'created_at'],
});

/**
 * File Management's architecture filter: an index with the list's default order, as the OS filter has. Without it a
 * filtered page's count read every file row (20,000 at bench size): `?architecture=arm64` answered at p95 62 ms on
 * SQLite under 10 concurrent calls (bench:lists), against 34 ms for `?os_type=linux`.
 */
export class FileArchitectureIndex1765200000000 implements MigrationInterface {
  name = 'FileArchitectureIndex1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('distribution_files', ARCHITECTURE);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('distribution_files', ARCHITECTURE.name!);
  }
}
