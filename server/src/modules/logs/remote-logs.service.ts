import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GroupCommit } from '../../database/group-commit';
import { PreparedSql } from '../../database/prepared-sql';
import { RemoteLogEntity } from './remote-log.entity';

export type RemoteLogEntry = Omit<RemoteLogEntity, 'id'>;

const COLUMNS: Array<keyof RemoteLogEntry> = [
  'action',
  'level',
  'message',
  'license_key',
  'server_uid',
  'hostname',
  'product',
  'version',
  'valid',
  'code',
  'ip_address',
  'created_at',
];

/** Records every call of the activation API. Entries of concurrent calls are written together (group commit). */
@Injectable()
export class RemoteLogsService implements BeforeApplicationShutdown {
  private readonly sql: PreparedSql;
  private readonly writer = new GroupCommit<RemoteLogEntry>((entries) =>
    this.sql.insertMany(
      'remote_logs',
      COLUMNS,
      entries.map((entry) => COLUMNS.map((column) => entry[column])),
    ),
  );

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** Resolves once the entry is stored, so an answer is never sent for a call that left no record. */
  record(entry: RemoteLogEntry): Promise<void> {
    return this.writer.add({
      ...entry,
      message: entry.message.slice(0, 255),
      license_key: entry.license_key.slice(0, 64),
      server_uid: entry.server_uid.slice(0, 128),
      hostname: entry.hostname?.slice(0, 255) ?? null,
      product: entry.product?.slice(0, 150) ?? null,
      version: entry.version?.slice(0, 50) ?? null,
      ip_address: entry.ip_address?.slice(0, 64) ?? null,
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.drain();
  }
}
