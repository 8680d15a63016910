import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the users search looks in: the e-mail, then the full name (as the list's LIKE search compares them). */
const TEXT = (row: string) => `${row}.email || ' ' || ${row}.first_name || ' ' || ${row}.last_name`;

/**
 * SQLite: a trigram full-text index (FTS5) over each user's e-mail and name, kept by triggers, so the admin users
 * search finds the few users containing a term without reading all of them. MariaDB keeps its LIKE search (its
 * FULLTEXT index matches words, not parts of them): nothing to do there.
 */
export class UserSearch1764750100000 implements MigrationInterface {
  name = 'UserSearch1764750100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    await queryRunner.query(`CREATE VIRTUAL TABLE users_search USING fts5(text, tokenize = 'trigram')`);
    await queryRunner.query(`INSERT INTO users_search (rowid, text) SELECT id, ${TEXT('users')} FROM users`);
    await queryRunner.query(
      `CREATE TRIGGER users_search_insert AFTER INSERT ON users BEGIN INSERT INTO users_search (rowid, text) VALUES (new.id, ${TEXT('new')}); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER users_search_update AFTER UPDATE OF email, first_name, last_name ON users BEGIN ` +
        `UPDATE users_search SET text = ${TEXT('new')} WHERE rowid = new.id; END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER users_search_delete AFTER DELETE ON users BEGIN DELETE FROM users_search WHERE rowid = old.id; END`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') return;
    for (const trigger of ['users_search_insert', 'users_search_update', 'users_search_delete'])
      await queryRunner.query(`DROP TRIGGER ${trigger}`);
    await queryRunner.query('DROP TABLE users_search');
  }
}
