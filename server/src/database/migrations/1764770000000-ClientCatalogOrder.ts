import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

const CATALOG_ORDER = new TableIndex({ name: 'IDX_versions_is_latest_release_date_id', columnNames: ['is_latest', 'release_date', 'id'] });
const LATEST = new TableIndex({ name: 'IDX_versions_is_latest', columnNames: ['is_latest'] });

/**
 * The client's catalog pages through versions latest first, then newest release, then id: one index in that order
 * (read backwards) serves each page. It also serves `is_latest = 1`, so the single-column index it starts with goes.
 */
export class ClientCatalogOrder1764770000000 implements MigrationInterface {
  name = 'ClientCatalogOrder1764770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('versions', CATALOG_ORDER);
    await queryRunner.dropIndex('versions', LATEST.name!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('versions', LATEST);
    await queryRunner.dropIndex('versions', CATALOG_ORDER.name!);
  }
}
