import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/** Reset links find their account by the token's hash: an index, as the verification token has. */
export class PasswordReset1764710000000 implements MigrationInterface {
  name = 'PasswordReset1764710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'users',
      new TableIndex({ name: 'IDX_users_password_reset_token_hash', columnNames: ['password_reset_token_hash'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('users', 'IDX_users_password_reset_token_hash');
  }
}
