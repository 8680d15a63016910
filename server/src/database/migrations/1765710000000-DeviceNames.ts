import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { MAX_LENGTH } from '../column-lengths';

/**
 * The name a customer gives a device (issue 41), apart from the one its server sends (device_name), so the next
 * heartbeat does not undo it. Added with ALTER TABLE on SQLite as TypeORM would write it (its addColumn rebuilds the
 * table there, copying every device).
 */
export class DeviceNames1765710000000 implements MigrationInterface {
  name = 'DeviceNames1765710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3')
      await queryRunner.query(`ALTER TABLE "devices" ADD COLUMN "custom_name" varchar(${MAX_LENGTH.deviceName})`);
    else
      await queryRunner.addColumn(
        'devices',
        new TableColumn({ name: 'custom_name', type: 'varchar', length: String(MAX_LENGTH.deviceName), isNullable: true }),
      );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') await queryRunner.query('ALTER TABLE "devices" DROP COLUMN "custom_name"');
    else await queryRunner.dropColumn('devices', 'custom_name');
  }
}
