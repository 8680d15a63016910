import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const COLUMNS = ['os', 'arch'];

/**
 * The platform a streaming server reports (issue 41: the fleet's versions): its operating system and architecture,
 * as activate and validate send them. Added with ALTER TABLE on SQLite (TypeORM's addColumn rebuilds the table
 * there, copying every device).
 */
export class DevicePlatforms1765810000000 implements MigrationInterface {
  name = 'DevicePlatforms1765810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const name of COLUMNS) {
      if (queryRunner.connection.options.type === 'better-sqlite3') await queryRunner.query(`ALTER TABLE "devices" ADD COLUMN "${name}" varchar(10)`);
      else await queryRunner.addColumn('devices', new TableColumn({ name, type: 'varchar', length: '10', isNullable: true }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of [...COLUMNS].reverse()) {
      if (queryRunner.connection.options.type === 'better-sqlite3') await queryRunner.query(`ALTER TABLE "devices" DROP COLUMN "${name}"`);
      else await queryRunner.dropColumn('devices', name);
    }
  }
}
