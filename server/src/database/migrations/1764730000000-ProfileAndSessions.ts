import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { dateTimeColumn } from '../columns';

/** A change of e-mail address waiting for its confirmation link, and when each session was last used. */
export class ProfileAndSessions1764730000000 implements MigrationInterface {
  name = 'ProfileAndSessions1764730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('users', [
      new TableColumn({ name: 'pending_email', type: 'varchar', length: '255', isNullable: true }),
      new TableColumn({ name: 'pending_email_token_hash', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn(dateTimeColumn('pending_email_expires')),
    ]);
    await queryRunner.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_pending_email_token_hash', columnNames: ['pending_email_token_hash'] }),
    );
    await queryRunner.addColumn('sessions', new TableColumn(dateTimeColumn('last_used_at')));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('sessions', 'last_used_at');
    await queryRunner.dropIndex('users', 'IDX_users_pending_email_token_hash');
    await queryRunner.dropColumns('users', ['pending_email', 'pending_email_token_hash', 'pending_email_expires']);
  }
}
