import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { insertPostings, USER_TRIGRAMS_TABLE, userTrigrams } from '../../modules/users/user-trigrams.repository';

/** Users read per backfill batch (by id). */
const BATCH = 2000;

/**
 * MySQL/MariaDB: the users search's trigram postings (see UserTrigrams), filled for the existing users in batches
 * by id. SQLite has its FTS5 trigram table (UserSearch1764750100000): nothing to do there.
 */
export class UserSearchTrigrams1764800000000 implements MigrationInterface {
  name = 'UserSearchTrigrams1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') return;
    await queryRunner.createTable(
      new Table({
        name: USER_TRIGRAMS_TABLE,
        columns: [
          { name: 'trigram', type: 'varchar', length: '3', isPrimary: true },
          { name: 'user_id', type: 'int', isPrimary: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      USER_TRIGRAMS_TABLE,
      new TableIndex({ name: 'IDX_user_search_trigrams_user_id', columnNames: ['user_id'] }),
    );
    await queryRunner.createForeignKey(
      USER_TRIGRAMS_TABLE,
      new TableForeignKey({
        name: 'FK_user_search_trigrams_user_id',
        columnNames: ['user_id'],
        referencedTableName: 'users',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
    for (let afterId = 0; ;) {
      const users: Array<{ id: number; email: string; first_name: string; last_name: string }> = await queryRunner.query(
        'SELECT id, email, first_name, last_name FROM users WHERE id > ? ORDER BY id LIMIT ?',
        [afterId, BATCH],
      );
      if (!users.length) break;
      await insertPostings(
        queryRunner.manager,
        users.flatMap((user) => userTrigrams(user).map((trigram): [string, number] => [trigram, user.id])),
      );
      afterId = users[users.length - 1].id;
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') return;
    await queryRunner.dropTable(USER_TRIGRAMS_TABLE);
  }
}
