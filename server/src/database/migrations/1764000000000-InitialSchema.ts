import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, timestampColumns } from '../columns';

export class InitialSchema1764000000000 implements MigrationInterface {
  name = 'InitialSchema1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          idColumn(),
          { name: 'email', type: 'varchar', length: '255' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'first_name', type: 'varchar', length: '100', default: "''" },
          { name: 'last_name', type: 'varchar', length: '100', default: "''" },
          { name: 'company', type: 'varchar', length: '150', isNullable: true },
          { name: 'phone', type: 'varchar', length: '50', isNullable: true },
          { name: 'country', type: 'varchar', length: '100', isNullable: true },
          { name: 'role', type: 'varchar', length: '20', default: "'client'" },
          { name: 'is_active', type: 'boolean', default: 1 },
          { name: 'is_verified', type: 'boolean', default: 0 },
          dateTimeColumn('email_verified_at'),
          { name: 'verification_token_hash', type: 'varchar', length: '64', isNullable: true },
          dateTimeColumn('verification_token_expires'),
          { name: 'password_reset_token_hash', type: 'varchar', length: '64', isNullable: true },
          dateTimeColumn('password_reset_expires'),
          dateTimeColumn('last_login'),
          { name: 'token_version', type: 'integer', default: 0 },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({ name: 'UQ_users_email', columnNames: ['email'], isUnique: true }),
          new TableIndex({ name: 'IDX_users_role', columnNames: ['role'] }),
          new TableIndex({ name: 'IDX_users_is_active', columnNames: ['is_active'] }),
          new TableIndex({ name: 'IDX_users_verification_token_hash', columnNames: ['verification_token_hash'] }),
          new TableIndex({ name: 'IDX_users_created_at', columnNames: ['created_at'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          { name: 'token_version', type: 'integer' },
          dateTimeColumn('expires_at', false),
          { name: 'ip', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_agent', type: 'varchar', length: '255', isNullable: true },
          timestampColumns(queryRunner)[0],
        ],
        indices: [
          new TableIndex({ name: 'IDX_sessions_user_id', columnNames: ['user_id'] }),
          new TableIndex({ name: 'IDX_sessions_expires_at', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_sessions_user_id',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'settings',
        columns: [
          { name: 'key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'value', type: 'text' },
          timestampColumns(queryRunner)[1],
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('settings');
    await queryRunner.dropTable('sessions');
    await queryRunner.dropTable('users');
  }
}
