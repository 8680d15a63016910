import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { createdAtColumn, dateTimeColumn, idColumn } from '../columns';

const userForeignKey = (table: string) =>
  new TableForeignKey({
    name: `FK_${table}_user_id`,
    columnNames: ['user_id'],
    referencedTableName: 'users',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
    onUpdate: 'NO ACTION',
  });

/** Two-factor sign-in of administrators: a TOTP authenticator per user and its single-use recovery codes. */
export class AdminMfa1764720000000 implements MigrationInterface {
  name = 'AdminMfa1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'user_mfa',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'secret', type: 'varchar', length: '255' },
          dateTimeColumn('enabled_at'),
          { name: 'last_used_step', type: 'integer', isNullable: true },
          createdAtColumn(queryRunner),
        ],
        foreignKeys: [userForeignKey('user_mfa')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'mfa_recovery_codes',
        columns: [
          idColumn(),
          { name: 'user_id', type: 'integer' },
          { name: 'code_hash', type: 'varchar', length: '64' },
          dateTimeColumn('used_at'),
          createdAtColumn(queryRunner),
        ],
        indices: [new TableIndex({ name: 'IDX_mfa_recovery_codes_user_id_code_hash', columnNames: ['user_id', 'code_hash'] })],
        foreignKeys: [userForeignKey('mfa_recovery_codes')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mfa_recovery_codes');
    await queryRunner.dropTable('user_mfa');
  }
}
