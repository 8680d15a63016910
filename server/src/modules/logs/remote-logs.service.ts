import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { IntervalBatch } from '../../database/interval-batch';
import { PreparedSql } from '../../database/prepared-sql';
import type { RawRow } from './log-export';
import { commonFilters, LogFilters, LogListing, LogPage, LogSource, startsWith } from './log-listing';
import { RemoteLogEntity } from './remote-log.entity';
import { MAX_LENGTH } from '../../database/column-lengths';
import { batchedRows } from './batched-rows';

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

/** Records every call of the activation API, written in batches. */
@Injectable()
export class RemoteLogsService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly sql: PreparedSql;
  private readonly listing: LogListing;
  /** No index but created_at (each one would slow every heartbeat's insert): a search scans newest first. */
  readonly source: LogSource = {
    table: 'remote_logs',
    filters: (filters) => [...commonFilters(filters, null), ...(filters.level ? [{ sql: 'level = ?', params: [filters.level] }] : [])],
    searchMatches: (term) => [
      startsWith('license_key', term.toUpperCase()),
      startsWith('server_uid', term),
      startsWith('hostname', term),
      startsWith('ip_address', term),
      startsWith('action', term.toLowerCase()),
      { sql: 'code = ?', params: [term.toUpperCase()] },
    ],
  };
  private readonly logger = new Logger('RemoteLogs');
  // Nobody waits for an entry, as for access and download rows: held and written hundreds at a time. Awaited
  // one group commit per turn of the event loop (a few dozen rows), they cost a heartbeat 11 % of its CPU
  // (bench:validate profile, SQLite). A read of the log stores what is held first, and so does shutdown.
  private readonly writer: IntervalBatch<RemoteLogEntry>;

  constructor(
    dataSource: DataSource,
    @InjectRepository(RemoteLogEntity) private readonly logs: Repository<RemoteLogEntity>,
  ) {
    this.sql = PreparedSql.for(dataSource);
    this.writer = batchedRows<RemoteLogEntry>(this.sql, 'remote_logs', COLUMNS, this.logger);
    this.listing = new LogListing(this.sql);
  }

  /** Queues the entry: stored within a second, or by `flush`, or at shutdown. */
  record(entry: RemoteLogEntry): void {
    this.writer.add({
      ...entry,
      message: entry.message.slice(0, MAX_LENGTH.remoteLogMessage),
      license_key: entry.license_key.slice(0, MAX_LENGTH.licenseKey),
      server_uid: entry.server_uid.slice(0, MAX_LENGTH.serverUid),
      hostname: entry.hostname?.slice(0, MAX_LENGTH.hostname) ?? null,
      product: entry.product?.slice(0, MAX_LENGTH.productName) ?? null,
      version: entry.version?.slice(0, MAX_LENGTH.version) ?? null,
      ip_address: entry.ip_address?.slice(0, MAX_LENGTH.ip) ?? null,
    });
  }

  /** This portal's own entries after `afterId`, oldest first (for a portal that syncs from this one). */
  async listOwnSince(afterId: number, limit: number): Promise<SyncedRemoteLog[]> {
    await this.writer.flush();
    const rows = await this.logs
      .createQueryBuilder('r')
      .where('r.id > :afterId AND r.origin IS NULL', { afterId })
      .orderBy('r.id', 'ASC')
      .take(limit)
      .getMany();
    return rows.map(({ origin: _origin, origin_id: _originId, ...entry }) => entry);
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

  async list(filters: LogFilters): Promise<LogPage<RemoteLogEntity>> {
    await this.writer.flush();
    const page = await this.listing.page<RemoteLogEntity>(this.source, filters);
    return { ...page, rows: page.rows.map((row) => this.read(row)) };
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts). */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.listing.batches(this.source, filters);
  }

  async prune(before: Date): Promise<number> {
    await this.writer.flush();
    return this.listing.prune('remote_logs', before);
  }

  /** Deletes every remote log entry (what was pulled from a license server too). */
  async clear(): Promise<void> {
    await this.writer.flush();
    await this.sql.run(this.sql.engine === 'mysql' ? 'TRUNCATE TABLE remote_logs' : 'DELETE FROM remote_logs', []);
    this.listing.forget();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.flush().catch(() => undefined);
  }

  private read(row: RemoteLogEntity): RemoteLogEntity {
    return {
      ...row,
      id: Number(row.id),
      valid: Boolean(Number(row.valid)),
      origin_id: row.origin_id === null ? null : Number(row.origin_id),
      created_at: this.sql.readDate(row.created_at)!,
    };
  }
}
