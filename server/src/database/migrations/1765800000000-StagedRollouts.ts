import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn } from '../columns';

const foreignKey = (column: string, table: string) =>
  new TableForeignKey({
    name: `FK_release_offers_${column}`,
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/**
 * Staged rollouts (issue 41): the share of servers a release is offered to and whether its rollout is paused; which
 * servers the update API offered each release (release_offers); the devices by the release they report, for the
 * count of servers on a release. The versions' columns are added with ALTER TABLE on SQLite, as TypeORM would
 * write them (its addColumn rebuilds the table there).
 */
export class StagedRollouts1765800000000 implements MigrationInterface {
  name = 'StagedRollouts1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('ALTER TABLE "versions" ADD COLUMN "rollout_percent" integer NOT NULL DEFAULT (100)');
      await queryRunner.query('ALTER TABLE "versions" ADD COLUMN "rollout_paused" boolean NOT NULL DEFAULT (0)');
    } else
      await queryRunner.addColumns('versions', [
        new TableColumn({ name: 'rollout_percent', type: 'integer', default: 100 }),
        new TableColumn({ name: 'rollout_paused', type: 'boolean', default: 0 }),
      ]);
    await queryRunner.createIndex('devices', new TableIndex({ name: 'IDX_devices_version_status', columnNames: ['version', 'status'] }));
    await queryRunner.createTable(
      new Table({
        name: 'release_offers',
        columns: [
          idColumn(),
          { name: 'version_id', type: 'integer' },
          { name: 'device_id', type: 'integer' },
          dateTimeColumn('offered_at', false),
        ],
        indices: [
          new TableIndex({ name: 'UQ_release_offers_version_id_device_id', columnNames: ['version_id', 'device_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_release_offers_device_id', columnNames: ['device_id'] }),
        ],
        foreignKeys: [foreignKey('version_id', 'versions'), foreignKey('device_id', 'devices')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('release_offers');
    await queryRunner.dropIndex('devices', 'IDX_devices_version_status');
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('ALTER TABLE "versions" DROP COLUMN "rollout_paused"');
      await queryRunner.query('ALTER TABLE "versions" DROP COLUMN "rollout_percent"');
    } else {
      await queryRunner.dropColumn('versions', 'rollout_paused');
      await queryRunner.dropColumn('versions', 'rollout_percent');
    }
  }
}
