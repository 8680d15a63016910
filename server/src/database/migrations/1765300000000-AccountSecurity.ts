import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';
import { dateTimeColumn } from '../columns';

/**
 * Whether each session passed a second factor, and the second-step tokens already spent. Sessions from before have
 * not: an admin with two-factor sign-in on signs in again once after the upgrade.
 */
export class AccountSecurity1765300000000 implements MigrationInterface {
  name = 'AccountSecurity1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('sessions', new TableColumn({ name: 'second_factor', type: 'boolean', default: 0 }));
    await queryRunner.createTable(
      new Table({
        name: 'spent_mfa_challenges',
        columns: [{ name: 'id', type: 'varchar', length: '36', isPrimary: true }, dateTimeColumn('expires_at', false)],
        indices: [new TableIndex({ name: 'IDX_spent_mfa_challenges_expires_at', columnNames: ['expires_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('spent_mfa_challenges');
    await queryRunner.dropColumn('sessions', 'second_factor');
  }
}
