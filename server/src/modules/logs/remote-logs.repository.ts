import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { MAX_LENGTH } from '../../database/column-lengths';
import type { LogFilters } from '../../common/log-listing';
import { commonFilters, Condition, LogTableRepository, startsWith } from '../../database/log-table';
import { RemoteLogEntity } from './remote-log.entity';

/** An entry of this portal's own activation API. */
export type RemoteLogEntry = Omit<RemoteLogEntity, 'id' | 'origin' | 'origin_id'>;

/** An entry as a license server hands it out for syncing: its own id, and what it recorded. */
export type SyncedRemoteLog = RemoteLogEntry & { id: number };

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

/**
 * The remote logs' table (remote_logs): this portal's activation API calls and what was pulled from a license
 * server. No index but created_at and the origin's key (each one would slow every heartbeat's insert): a search
 * scans newest first.
 */
@Injectable()
export class RemoteLogsRepository extends LogTableRepository<RemoteLogEntity> {
  constructor(
    dataSource: DataSource,
    @InjectRepository(RemoteLogEntity) private readonly logs: Repository<RemoteLogEntity>,
  ) {
    super(dataSource, 'remote_logs');
  }

  insert(entries: RemoteLogEntry[]): Promise<void> {
    return this.insertRows(COLUMNS, entries);
  }

  /** Stores entries pulled from a license server; an entry already pulled (same server and id) is skipped. */
  async importFrom(origin: string, entries: SyncedRemoteLog[]): Promise<void> {
    await this.sql.insertMany(
      'remote_logs',
      [...COLUMNS, 'origin', 'origin_id'],
      entries.map((entry) => [...COLUMNS.map((column) => entry[column]), origin.slice(0, MAX_LENGTH.remoteLogOrigin), entry.id]),
      { ignoreDuplicates: true },
    );
  }

  /** This portal's own entries after `afterId`, oldest first. */
  async listOwnSince(afterId: number, limit: number): Promise<SyncedRemoteLog[]> {
    const rows = await this.logs
      .createQueryBuilder('r')
      .where('r.id > :afterId AND r.origin IS NULL', { afterId })
      .orderBy('r.id', 'ASC')
      .take(limit)
      .getMany();
    return rows.map(({ origin: _origin, origin_id: _originId, ...entry }) => entry);
  }

  protected filters(filters: LogFilters): Condition[] {
    return [...commonFilters(filters, null), ...(filters.level ? [{ sql: 'level = ?', params: [filters.level] }] : [])];
  }

  protected searchMatches(term: string): Condition[] {
    return [
      startsWith('license_key', term.toUpperCase()),
      startsWith('server_uid', term),
      startsWith('hostname', term),
      startsWith('ip_address', term),
      startsWith('action', term.toLowerCase()),
      { sql: 'code = ?', params: [term.toUpperCase()] },
    ];
  }

  protected read(row: RemoteLogEntity): RemoteLogEntity {
    return {
      ...row,
      id: Number(row.id),
      valid: Boolean(Number(row.valid)),
      origin_id: row.origin_id === null ? null : Number(row.origin_id),
      created_at: this.sql.readDate(row.created_at)!,
    };
  }
}
