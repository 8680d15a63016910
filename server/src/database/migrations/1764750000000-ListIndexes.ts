import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

const index = (table: string, columns: string[]) => new TableIndex({ name: `IDX_${table}_${columns.join('_')}`, columnNames: columns });

/** Every index this migration adds: one per sortable column (ORDER BY … LIMIT reads it in order) and per filter with the default sort. */
const INDEXES: Array<[string, string[]]> = [
  ['licenses', ['license_key_compact']],
  ['licenses', ['status', 'created_at']],
  ['licenses', ['is_trial', 'created_at']],
  ['licenses', ['product_name', 'created_at']],
  ['users', ['first_name', 'last_name']],
  ['users', ['last_name']],
  ['users', ['is_verified']],
  ['users', ['last_login']],
  ['devices', ['last_activity_at']],
  ['devices', ['device_name']],
  ['devices', ['hostname']],
  ['devices', ['status', 'activated_at']],
  ['orders', ['amount_cents']],
  ['orders', ['status', 'created_at']],
  ['distribution_files', ['file_name']],
  ['distribution_files', ['file_size']],
  ['distribution_files', ['download_count']],
  ['distribution_files', ['os_type']],
];

/**
 * The admin lists at a million rows: an index for every sortable column and for the filters with the default
 * order, and licenses.license_key_compact (the key in capitals without hyphens, filled on insert) so a key searched
 * in any case, with hyphens or without, is a prefix range of one index.
 */
export class ListIndexes1764750000000 implements MigrationInterface {
  name = 'ListIndexes1764750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'licenses',
      new TableColumn({ name: 'license_key_compact', type: 'varchar', length: '64', isNullable: true }),
    );
    await queryRunner.query(`UPDATE licenses SET license_key_compact = UPPER(REPLACE(license_key, '-', ''))`);
    for (const [table, columns] of INDEXES) await queryRunner.createIndex(table, index(table, columns));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of [...INDEXES].reverse()) await queryRunner.dropIndex(table, `IDX_${table}_${columns.join('_')}`);
    await queryRunner.dropColumn('licenses', 'license_key_compact');
  }
}
