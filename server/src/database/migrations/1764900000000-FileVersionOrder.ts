import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { MAX_LENGTH } from '../column-lengths';

const VERSION_NUMBER = new TableIndex({ name: 'IDX_distribution_files_version_number', columnNames: ['version_number'] });

/**
 * File Management sorted by version: each file keeps its version's number (distribution_files.version_number), so
 * the page reads that column's index in order. Sorting by the joined versions column made MariaDB join and sort
 * every file (20,000 at bench size) for each page.
 */
export class FileVersionOrder1764900000000 implements MigrationInterface {
  name = 'FileVersionOrder1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'distribution_files',
      new TableColumn({ name: 'version_number', type: 'varchar', length: String(MAX_LENGTH.version), default: "''" }),
    );
    await queryRunner.query(
      'UPDATE distribution_files SET version_number = (SELECT versions.version FROM versions WHERE versions.id = distribution_files.version_id)',
    );
    await queryRunner.createIndex('distribution_files', VERSION_NUMBER);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('distribution_files', VERSION_NUMBER.name!);
    await queryRunner.dropColumn('distribution_files', 'version_number');
  }
}
