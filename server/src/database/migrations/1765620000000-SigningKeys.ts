import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { createdAtColumn, dateTimeColumn, idColumn } from '../columns';

/**
 * Signing keys with ids and rotation (issue 41). Empty here: the first start imports LICENSE_SIGNING_KEY (or the key
 * file in DATA_DIR) as the first key, so its kid and every license file signed with it stay valid.
 */
export class SigningKeys1765620000000 implements MigrationInterface {
  name = 'SigningKeys1765620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'signing_keys',
        columns: [
          idColumn(),
          { name: 'kid', type: 'varchar', length: '16' },
          { name: 'public_key_pem', type: 'text' },
          { name: 'private_key_sealed', type: 'text', isNullable: true },
          createdAtColumn(queryRunner),
          dateTimeColumn('retired_at'),
          dateTimeColumn('removed_at'),
        ],
        indices: [new TableIndex({ name: 'UQ_signing_keys_kid', columnNames: ['kid'], isUnique: true })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('signing_keys');
  }
}
