import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn } from '../columns';

const index = (table: string, columns: string[], unique = false) =>
  new TableIndex({ name: `${unique ? 'UQ' : 'IDX'}_${table}_${columns.join('_')}`, columnNames: columns, isUnique: unique });
const count = (name: string) => ({ name, type: 'integer', default: 0 });

/**
 * License-server sync that survives failures and restarts: full syncs with their cursor and progress (started when
 * the license server is configured or changed), the retry queue of failed pushes with their backoff, and the
 * reconciles with the drift each one found. Licenses get an index on synced_at: System Health counts the pending
 * ones on every call, and the push takes them in id order.
 */
export class LicenseServerSyncState1764740000000 implements MigrationInterface {
  name = 'LicenseServerSyncState1764740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'sync_runs',
        columns: [
          idColumn(),
          { name: 'target_url', type: 'varchar', length: '500' },
          { name: 'reason', type: 'varchar', length: '16' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'phase', type: 'varchar', length: '16' },
          count('cursor_id'),
          count('versions_total'),
          count('versions_done'),
          count('licenses_total'),
          count('licenses_done'),
          count('devices_total'),
          count('devices_done'),
          count('attempts'),
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          dateTimeColumn('next_attempt_at'),
          dateTimeColumn('started_at', false),
          dateTimeColumn('updated_at', false),
          dateTimeColumn('finished_at'),
        ],
        indices: [index('sync_runs', ['status'])],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sync_queue',
        columns: [
          idColumn(),
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'item_key', type: 'varchar', length: '64' },
          count('attempts'),
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          dateTimeColumn('next_attempt_at', false),
          dateTimeColumn('created_at', false),
          dateTimeColumn('last_attempt_at'),
        ],
        indices: [index('sync_queue', ['kind', 'item_key'], true), index('sync_queue', ['next_attempt_at'])],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sync_reconciles',
        columns: [
          idColumn(),
          { name: 'target_url', type: 'varchar', length: '500' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          count('licenses_here'),
          count('licenses_there'),
          count('versions_here'),
          count('versions_there'),
          count('missing_there'),
          count('missing_here'),
          count('different'),
          dateTimeColumn('started_at', false),
          dateTimeColumn('finished_at'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sync_drift',
        columns: [
          idColumn(),
          { name: 'reconcile_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '16' },
          { name: 'item_key', type: 'varchar', length: '64' },
          { name: 'drift', type: 'varchar', length: '16' },
        ],
        indices: [index('sync_drift', ['reconcile_id', 'id'])],
      }),
    );
    await queryRunner.createIndex('licenses', index('licenses', ['synced_at']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('licenses', 'IDX_licenses_synced_at');
    for (const table of ['sync_drift', 'sync_reconciles', 'sync_queue', 'sync_runs']) await queryRunner.dropTable(table);
  }
}
