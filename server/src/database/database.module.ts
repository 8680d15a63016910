import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Transactions } from './transactions';
import { createConnection } from 'mysql2/promise';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { WalCheckpoints } from './wal-checkpoints';
import { ReadConnectionsShutdown } from './off-loop-reads';

/** MariaDB and MySQL report defaults differently; TypeORM must know which one it talks to. */
export async function resolveDatabase(database: DatabaseConfig): Promise<DatabaseConfig> {
  if (database.type !== 'mysql' || database.flavor === 'mariadb') return database;
  const connection = await createConnection(database.url);
  try {
    const [rows] = await connection.query<Array<{ version: string } & import('mysql2').RowDataPacket>>('SELECT VERSION() AS version');
    return { ...database, flavor: /mariadb/i.test(rows[0].version) ? 'mariadb' : 'mysql' };
  } finally {
    await connection.end();
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(database: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      // Transactions is for every module's services.
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async (): Promise<DataSourceOptions> => dataSourceOptions(await resolveDatabase(database)),
        }),
      ],
      providers: [ReadConnectionsShutdown, WalCheckpoints, Transactions],
      exports: [WalCheckpoints, Transactions],
    };
  }
}

const MIGRATION_LOCK = 'streamhub_portal_migrations';

/** Runs pending migrations; on MySQL under a named lock, so instances starting together take turns. */
export async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type === 'better-sqlite3') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT GET_LOCK(?, 120)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
