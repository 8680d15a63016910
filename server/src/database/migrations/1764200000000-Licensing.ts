import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, timestampColumns } from '../columns';

/** Orders, licenses, devices (activations) and the remote logs of the activation API. */
export class Licensing1764200000000 implements MigrationInterface {
  name = 'Licensing1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const userForeignKey = (table: string) =>
      new TableForeignKey({
        name: `FK_${table}_user_id`,
        columnNames: ['user_id'],
        referencedTableName: 'users',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
        onUpdate: 'NO ACTION',
      });

    await queryRunner.createTable(
      new Table({
        name: 'orders',
        columns: [
          idColumn(),
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'user_email', type: 'varchar', length: '255' },
          { name: 'product_name', type: 'varchar', length: '150' },
          { name: 'devices', type: 'integer' },
          { name: 'months', type: 'integer' },
          { name: 'unit_price_cents', type: 'integer' },
          { name: 'amount_cents', type: 'integer' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'status', type: 'varchar', length: '20', default: "'pending'" },
          { name: 'payment_provider', type: 'varchar', length: '32' },
          { name: 'payment_reference', type: 'varchar', length: '128', isNullable: true },
          { name: 'failure_reason', type: 'varchar', length: '255', isNullable: true },
          dateTimeColumn('paid_at'),
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({ name: 'IDX_orders_user_id_created_at', columnNames: ['user_id', 'created_at'] }),
          new TableIndex({ name: 'IDX_orders_user_email', columnNames: ['user_email'] }),
          new TableIndex({ name: 'IDX_orders_status', columnNames: ['status'] }),
          new TableIndex({ name: 'IDX_orders_created_at', columnNames: ['created_at'] }),
        ],
        foreignKeys: [userForeignKey('orders')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'licenses',
        columns: [
          idColumn(),
          { name: 'license_key', type: 'varchar', length: '64' },
          { name: 'product_name', type: 'varchar', length: '150' },
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'user_email', type: 'varchar', length: '255' },
          { name: 'status', type: 'varchar', length: '20', default: "'active'" },
          { name: 'is_trial', type: 'boolean', default: 0 },
          dateTimeColumn('expires_at', false),
          { name: 'max_activations', type: 'integer', default: 1 },
          { name: 'current_activations', type: 'integer', default: 0 },
          { name: 'order_id', type: 'integer', isNullable: true },
          dateTimeColumn('synced_at'),
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({ name: 'UQ_licenses_license_key', columnNames: ['license_key'], isUnique: true }),
          new TableIndex({ name: 'UQ_licenses_order_id', columnNames: ['order_id'], isUnique: true }),
          new TableIndex({ name: 'IDX_licenses_user_id_created_at', columnNames: ['user_id', 'created_at'] }),
          new TableIndex({ name: 'IDX_licenses_user_email', columnNames: ['user_email'] }),
          new TableIndex({ name: 'IDX_licenses_status_expires_at', columnNames: ['status', 'expires_at'] }),
          new TableIndex({ name: 'IDX_licenses_expires_at', columnNames: ['expires_at'] }),
          new TableIndex({ name: 'IDX_licenses_created_at', columnNames: ['created_at'] }),
        ],
        foreignKeys: [userForeignKey('licenses')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'devices',
        columns: [
          idColumn(),
          { name: 'license_id', type: 'integer' },
          { name: 'server_uid', type: 'varchar', length: '128' },
          { name: 'device_name', type: 'varchar', length: '150', isNullable: true },
          { name: 'hostname', type: 'varchar', length: '255', isNullable: true },
          { name: 'product', type: 'varchar', length: '150', isNullable: true },
          { name: 'version', type: 'varchar', length: '50', isNullable: true },
          { name: 'status', type: 'varchar', length: '20', default: "'active'" },
          dateTimeColumn('activated_at', false),
          dateTimeColumn('last_activity_at'),
          dateTimeColumn('deactivated_at'),
          { name: 'last_ip', type: 'varchar', length: '64', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({ name: 'UQ_devices_license_id_server_uid', columnNames: ['license_id', 'server_uid'], isUnique: true }),
          new TableIndex({ name: 'IDX_devices_status_last_activity_at', columnNames: ['status', 'last_activity_at'] }),
          new TableIndex({ name: 'IDX_devices_server_uid', columnNames: ['server_uid'] }),
          new TableIndex({ name: 'IDX_devices_activated_at', columnNames: ['activated_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_devices_license_id',
            columnNames: ['license_id'],
            referencedTableName: 'licenses',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'remote_logs',
        columns: [
          idColumn(),
          { name: 'action', type: 'varchar', length: '20' },
          { name: 'level', type: 'varchar', length: '10' },
          { name: 'message', type: 'varchar', length: '255' },
          { name: 'license_key', type: 'varchar', length: '64' },
          { name: 'server_uid', type: 'varchar', length: '128' },
          { name: 'hostname', type: 'varchar', length: '255', isNullable: true },
          { name: 'product', type: 'varchar', length: '150', isNullable: true },
          { name: 'version', type: 'varchar', length: '50', isNullable: true },
          { name: 'valid', type: 'boolean' },
          { name: 'code', type: 'varchar', length: '32' },
          { name: 'ip_address', type: 'varchar', length: '64', isNullable: true },
          dateTimeColumn('created_at', false),
        ],
        indices: [
          new TableIndex({ name: 'IDX_remote_logs_license_key_created_at', columnNames: ['license_key', 'created_at'] }),
          new TableIndex({ name: 'IDX_remote_logs_created_at', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('remote_logs');
    await queryRunner.dropTable('devices');
    await queryRunner.dropTable('licenses');
    await queryRunner.dropTable('orders');
  }
}
