import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { dateTimeColumn } from '../columns';

const CHANNEL = { name: 'channel', type: 'varchar', length: '10', default: "'stable'" };

/** The columns of this migration, per table. */
const COLUMNS = { licenses: [CHANNEL, dateTimeColumn('updates_until')], users: [CHANNEL] } as const;

/**
 * Which releases a license covers (issue 41): the channel granted per license and per customer (stable unless an
 * admin grants more), and the end of a license's updates (null: its expiry).
 *
 * On SQLite the columns are added with ALTER TABLE as TypeORM would write them: TypeORM's addColumn rebuilds the
 * table there, which would drop the triggers that keep the users search (UserSearch) and copy every license row.
 */
export class ReleaseCoverage1765700000000 implements MigrationInterface {
  name = 'ReleaseCoverage1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(COLUMNS)) {
      if (queryRunner.connection.options.type !== 'better-sqlite3') {
        await queryRunner.addColumns(table, columns.map((column) => new TableColumn({ ...column })));
        continue;
      }
      for (const column of columns) {
        const type = 'precision' in column ? `${column.type}(${column.precision})` : `${column.type}(${column.length})`;
        const rest = 'default' in column ? ` NOT NULL DEFAULT (${column.default})` : '';
        await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "${column.name}" ${type}${rest}`);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(COLUMNS))
      for (const column of columns) {
        if (queryRunner.connection.options.type === 'better-sqlite3')
          await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "${column.name}"`);
        else await queryRunner.dropColumn(table, column.name);
      }
  }
}
