import { Injectable, Logger } from '@nestjs/common';
import { MAX_LENGTH } from '../../database/column-lengths';
import { WrittenBehindLog } from '../../common/written-behind-log';
import { RemoteLogEntity } from './remote-log.entity';
import { RemoteLogEntry, RemoteLogsRepository, SyncedRemoteLog } from './remote-logs.repository';

export type { RemoteLogEntry, SyncedRemoteLog } from './remote-logs.repository';

/** Records every call of the activation API, written in batches; clearing it clears what was pulled from a license server too. */
@Injectable()
export class RemoteLogsService extends WrittenBehindLog<RemoteLogEntry, RemoteLogEntity> {
  constructor(protected override readonly repository: RemoteLogsRepository) {
    super(repository, (rows) => repository.insert(rows), 'remote_logs', new Logger('RemoteLogs'));
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
    return this.repository.listOwnSince(afterId, limit);
  }

  /** Stores entries pulled from a license server; an entry already pulled (same server and id) is skipped. */
  importFrom(origin: string, entries: SyncedRemoteLog[]): Promise<void> {
    return this.repository.importFrom(origin, entries);
  }
}
