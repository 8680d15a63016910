import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** One description of the database for the app, the CLI and the tests. */
export function dataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, synchronize: false, migrationsTransactionMode: 'each' as const };
  if (database.type === 'mysql') {
    return {
      ...common,
      type: database.flavor,
      url: database.url,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      bigNumberStrings: false,
      poolSize: database.poolSize,
      // An unreachable database fails a request within seconds (503) instead of holding it for the default 10 s.
      connectTimeout: 2000,
      // mysql2 captures a stack trace for every query by default (to decorate a failed query's error): a cost on
      // every statement of every request, where TypeORM's QueryFailedError already says which query failed.
      extra: { trace: false },
    };
  }
  if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    // WAL lets readers run beside the single writer; the busy timeout queues writers instead of failing them.
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      // 64 MiB of page cache (the default is 2 MiB): log inserts would otherwise push the hot license and
      // device pages out, and every lookup would go back to the file.
      db.pragma('cache_size = -65536');
    },
  };
}
