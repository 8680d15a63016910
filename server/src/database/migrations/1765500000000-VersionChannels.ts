import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { versionOrder } from '../../modules/versions/version-order';
import { MAX_LENGTH } from '../column-lengths';
import { dateTimeColumn } from '../columns';

const INDEXES = [
  new TableIndex({ name: 'IDX_versions_version_order', columnNames: ['version_order'] }),
  new TableIndex({ name: 'IDX_versions_state_version_order', columnNames: ['state', 'version_order'] }),
  new TableIndex({ name: 'IDX_versions_channel_version_order', columnNames: ['channel', 'version_order'] }),
];
const BATCH = 500;

/**
 * Release channels and states (issue 41): a version is in a channel (Beta where it was not stable, else Stable) and
 * published (since it was created); version_order sorts by semantic version, computed here from each number.
 */
export class VersionChannels1765500000000 implements MigrationInterface {
  name = 'VersionChannels1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('versions', [
      new TableColumn({ name: 'channel', type: 'varchar', length: '10', default: "'stable'" }),
      new TableColumn({ name: 'state', type: 'varchar', length: '10', default: "'published'" }),
      new TableColumn({ name: 'version_order', type: 'varchar', length: String(MAX_LENGTH.versionOrder), default: "''" }),
      new TableColumn(dateTimeColumn('published_at')),
      new TableColumn(dateTimeColumn('yanked_at')),
    ]);
    await queryRunner.query(
      `UPDATE versions SET channel = CASE WHEN is_stable = 0 THEN 'beta' ELSE 'stable' END, published_at = created_at`,
    );
    // The sort key needs semver's parser, so rows are read and written in batches by id.
    for (let after = 0; ;) {
      const rows = (await queryRunner.query('SELECT id, version FROM versions WHERE id > ? ORDER BY id LIMIT ?', [after, BATCH])) as {
        id: number | string;
        version: string;
      }[];
      if (!rows.length) break;
      for (const row of rows)
        await queryRunner.query('UPDATE versions SET version_order = ? WHERE id = ?', [versionOrder(row.version), row.id]);
      after = Number(rows[rows.length - 1].id);
    }
    await queryRunner.createIndices('versions', INDEXES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of INDEXES) await queryRunner.dropIndex('versions', index.name!);
    // A channel other than stable was beta before channels existed.
    await queryRunner.query(`UPDATE versions SET is_stable = CASE WHEN channel = 'stable' THEN 1 ELSE 0 END`);
    for (const column of ['yanked_at', 'published_at', 'version_order', 'state', 'channel'])
      await queryRunner.dropColumn('versions', column);
  }
}
