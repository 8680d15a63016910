import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dateTimeColumn, idColumn, timestampColumns } from '../columns';

/** Software versions, their distribution files, and the download logs. */
export class Distribution1764300000000 implements MigrationInterface {
  name = 'Distribution1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const createdByForeignKey = (table: string) =>
      new TableForeignKey({
        name: `FK_${table}_created_by`,
        columnNames: ['created_by'],
        referencedTableName: 'users',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
        onUpdate: 'NO ACTION',
      });

    await queryRunner.createTable(
      new Table({
        name: 'versions',
        columns: [
          idColumn(),
          { name: 'version', type: 'varchar', length: '50' },
          { name: 'release_date', type: 'varchar', length: '10' },
          { name: 'changelog', type: 'text', isNullable: true },
          { name: 'download_url', type: 'varchar', length: '500', isNullable: true },
          { name: 'file_name', type: 'varchar', length: '200', isNullable: true },
          { name: 'storage_key', type: 'varchar', length: '100', isNullable: true },
          { name: 'file_size', type: 'bigint', isNullable: true },
          { name: 'file_hash', type: 'varchar', length: '64', isNullable: true },
          { name: 'secret_hash', type: 'varchar', length: '255', isNullable: true },
          { name: 'encryption_key', type: 'varchar', length: '255', isNullable: true },
          { name: 'min_system_requirements', type: 'text', isNullable: true },
          { name: 'is_stable', type: 'boolean', default: 1 },
          { name: 'is_latest', type: 'boolean', default: 0 },
          { name: 'license_server_sync', type: 'boolean', default: 1 },
          dateTimeColumn('last_sync_at'),
          { name: 'created_by', type: 'integer', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({ name: 'UQ_versions_version', columnNames: ['version'], isUnique: true }),
          new TableIndex({ name: 'IDX_versions_release_date', columnNames: ['release_date'] }),
          new TableIndex({ name: 'IDX_versions_is_latest', columnNames: ['is_latest'] }),
          new TableIndex({ name: 'IDX_versions_created_at', columnNames: ['created_at'] }),
        ],
        foreignKeys: [createdByForeignKey('versions')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'distribution_files',
        columns: [
          idColumn(),
          { name: 'version_id', type: 'integer' },
          { name: 'os_type', type: 'varchar', length: '10' },
          { name: 'architecture', type: 'varchar', length: '10' },
          { name: 'file_name', type: 'varchar', length: '200' },
          { name: 'storage_key', type: 'varchar', length: '100' },
          { name: 'file_size', type: 'bigint' },
          { name: 'file_hash', type: 'varchar', length: '64' },
          { name: 'download_count', type: 'integer', default: 0 },
          { name: 'created_by', type: 'integer', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          new TableIndex({
            name: 'UQ_distribution_files_version_id_file_name',
            columnNames: ['version_id', 'file_name'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_distribution_files_os_type_created_at', columnNames: ['os_type', 'created_at'] }),
          new TableIndex({ name: 'IDX_distribution_files_created_at', columnNames: ['created_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_distribution_files_version_id',
            columnNames: ['version_id'],
            referencedTableName: 'versions',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
          createdByForeignKey('distribution_files'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'download_logs',
        columns: [
          idColumn(),
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'user_email', type: 'varchar', length: '255', isNullable: true },
          { name: 'file_id', type: 'integer', isNullable: true },
          { name: 'file_name', type: 'varchar', length: '200' },
          { name: 'version', type: 'varchar', length: '50', isNullable: true },
          { name: 'os_type', type: 'varchar', length: '10', isNullable: true },
          { name: 'architecture', type: 'varchar', length: '10', isNullable: true },
          { name: 'file_size', type: 'bigint', isNullable: true },
          { name: 'ip_address', type: 'varchar', length: '64', isNullable: true },
          { name: 'user_agent', type: 'varchar', length: '500', isNullable: true },
          { name: 'via', type: 'varchar', length: '10' },
          dateTimeColumn('created_at', false),
        ],
        indices: [
          new TableIndex({ name: 'IDX_download_logs_user_id_created_at', columnNames: ['user_id', 'created_at'] }),
          new TableIndex({ name: 'IDX_download_logs_file_id', columnNames: ['file_id'] }),
          new TableIndex({ name: 'IDX_download_logs_created_at', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('download_logs');
    await queryRunner.dropTable('distribution_files');
    await queryRunner.dropTable('versions');
  }
}
