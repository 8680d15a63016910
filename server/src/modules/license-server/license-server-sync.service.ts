import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { ApiError } from '../../common/api-error';
import {
  DEVICE_DEACTIVATING,
  type DeviceDeactivatingEvent,
  LICENSE_CHANGED,
  LICENSE_DELETED,
  type LicenseDeletedEvent,
  OnAwaitedEvent,
  OnNotification,
} from '../../common/events';
import { DevicesService } from '../devices/devices.service';
import { LicenseSyncService, toSyncedLicense } from '../licenses/license-sync.service';
import { RemoteLogsService } from '../logs/remote-logs.service';
import { SettingsService } from '../settings/settings.service';
import { toSyncedVersion, VersionsService } from '../versions/versions.service';
import {
  LicenseServerStatusDto,
  LicenseSyncResultDto,
  PushLicensesResponseDto,
  SYNC_BATCH_MAX,
  SyncCountsResponseDto,
  SyncDeactivationResponseDto,
  SyncDevicePageDto,
  SyncLicensePageDto,
  SyncRemoteLogPageDto,
  SyncRevocationResponseDto,
  VersionSyncResultDto,
} from './dto/sync.dto';
import { LicenseServerClient, LicenseServerError } from './license-server-client';

/** How many pages of one kind a sync pulls at most (500 items each), so a run always ends. */
const MAX_PAGES = 1000;
/** Request bodies stay well under the other portal's BODY_LIMIT (1 MB by default): long changelogs go in smaller batches. */
const MAX_PUSH_BYTES = 512 * 1024;
/** Push rounds per sync (500 licenses each); anything beyond waits for the next sync. */
const PUSH_ROUNDS = 20;

/**
 * Keeps an external license server in step, when settings name one (license_server.url and api_token):
 * versions and licenses changed here are pushed to it; its licenses, devices and activation log are pulled;
 * a license deleted here is revoked there, and a device deactivated here is deactivated there first.
 * Without one, this portal is the license server, and a sync only confirms that what is here is live.
 * Syncs run one at a time per process; every write on either side is an idempotent upsert, so instances that
 * sync at the same moment do no harm.
 */
@Injectable()
export class LicenseServerSyncService {
  private readonly logger = new Logger('LicenseServerSync');
  private queue: Promise<unknown> = Promise.resolve();
  private pushPending = false;

  constructor(
    private readonly settings: SettingsService,
    private readonly versions: VersionsService,
    private readonly licenses: LicenseSyncService,
    private readonly devices: DevicesService,
    private readonly remoteLogs: RemoteLogsService,
  ) {}

  async status(): Promise<LicenseServerStatusDto> {
    const [{ url }, state] = await Promise.all([this.settings.get('license_server'), this.settings.syncState()]);
    const date = (value: string | null) => (value ? new Date(value) : null);
    return {
      external: url !== '',
      url: url || null,
      versions_synced_at: date(state.versions_synced_at),
      licenses_synced_at: date(state.licenses_synced_at),
      last_error: state.last_error,
    };
  }

  /** Pushes the given versions, or every version marked for syncing; they show as synced afterwards. */
  /** The Sync action of one version: 404 for an id that names no version. */
  async syncVersion(id: number): Promise<VersionSyncResultDto> {
    await this.versions.get(id);
    return this.syncVersions([id]);
  }

  syncVersions(ids?: number[]): Promise<VersionSyncResultDto> {
    return this.serially(async () => {
      const versions = await this.versions.forSync(ids);
      const at = new Date();
      const client = await this.client();
      let result: VersionSyncResultDto = { synced_count: 0, updated_count: versions.length };
      if (client) {
        result = { synced_count: 0, updated_count: 0 };
        for (const batch of batchesBySize(versions.map(toSyncedVersion))) {
          const { data } = await this.guarded(client.call('PUT', '/versions', SyncCountsResponseDto, { versions: batch }));
          result.synced_count += data.created;
          result.updated_count += data.updated;
        }
      }
      await this.versions.markSynced(
        versions.map((v) => v.id),
        at,
      );
      await this.settings.recordSyncState({ versions_synced_at: at.toISOString(), last_error: null });
      return result;
    });
  }

  /**
   * Licenses both ways, then devices and the activation log: pending licenses are pushed, then the license
   * server's licenses are taken over (new ones added, known ones brought up to date).
   */
  syncLicenses(): Promise<LicenseSyncResultDto> {
    return this.serially(async () => {
      const at = new Date();
      const client = await this.client();
      const result: LicenseSyncResultDto = { synced_new: 0, updated_existing: 0, pushed: 0, devices_updated: 0, remote_logs_added: 0 };
      if (!client) {
        result.updated_existing = await this.licenses.confirmAllPending(at);
      } else {
        result.pushed = await this.pushPendingLicenses(client);
        for await (const licenses of this.pages(client, '/licenses', SyncLicensePageDto)) {
          const counts = await this.licenses.applyFromServer(licenses, at);
          result.synced_new += counts.created;
          result.updated_existing += counts.updated;
        }
        for await (const devices of this.pages(client, '/devices', SyncDevicePageDto)) {
          result.devices_updated += await this.devices.mirrorFromServer(devices);
        }
        result.remote_logs_added = await this.pullRemoteLogs(client);
      }
      await this.settings.recordSyncState({ licenses_synced_at: at.toISOString(), last_error: null });
      return result;
    });
  }

  /** Every five minutes, while an external license server is configured: licenses both ways, and pending versions. */
  @Cron(CronExpression.EVERY_5_MINUTES, { name: 'license-server-sync' })
  async scheduledSync(): Promise<void> {
    if (!(await this.client())) return;
    try {
      await this.syncLicenses();
      const pending = (await this.versions.forSync()).filter((version) => version.last_sync_at === null);
      if (pending.length) await this.syncVersions(pending.map((version) => version.id));
    } catch (error) {
      this.logger.warn(`Scheduled sync failed: ${(error as Error).message}`);
    }
  }

  /** Licenses changed here reach the license server within moments, in the background; failures wait for the next sync. */
  @OnNotification(LICENSE_CHANGED)
  schedulePush(): void {
    if (this.pushPending) return;
    this.pushPending = true;
    setImmediate(() => {
      this.pushPending = false;
      void this.serially(async () => {
        const client = await this.client();
        if (client) await this.pushPendingLicenses(client);
      }).catch((error: unknown) => this.logger.warn(`Pushing changed licenses failed: ${(error as Error).message}`));
    });
  }

  /** Pushes pending licenses in batches; one changed again meanwhile stays pending and goes in a later round. */
  private async pushPendingLicenses(client: LicenseServerClient): Promise<number> {
    let pushed = 0;
    for (let round = 0; round < PUSH_ROUNDS; round++) {
      const pending = await this.licenses.pendingForServer(SYNC_BATCH_MAX);
      if (!pending.length) break;
      const batch = pending.map(toSyncedLicense);
      await this.guarded(client.call('PUT', '/licenses', PushLicensesResponseDto, { licenses: batch }));
      await this.licenses.markSynced(batch, new Date());
      pushed += batch.length;
    }
    return pushed;
  }

  private async pullRemoteLogs(client: LicenseServerClient): Promise<number> {
    const state = await this.settings.syncState();
    const after = state.remote_logs?.origin === client.url ? state.remote_logs.after_id : 0;
    let added = 0;
    for await (const entries of this.pages(client, '/remote-logs', SyncRemoteLogPageDto, after)) {
      await this.remoteLogs.importFrom(client.url, entries);
      added += entries.length;
      await this.settings.recordSyncState({ remote_logs: { origin: client.url, after_id: entries[entries.length - 1].id } });
    }
    return added;
  }

  /** The license server's items of one kind after `afterId`, page by page (at most MAX_PAGES), oldest first. */
  private async *pages<T extends { id: number }>(
    client: LicenseServerClient,
    path: string,
    pageType: new () => { data: T[] },
    afterId = 0,
  ): AsyncGenerator<T[]> {
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await this.guarded(client.call('GET', `${path}?after_id=${afterId}&limit=${SYNC_BATCH_MAX}`, pageType));
      if (!data.length) return;
      yield data;
      if (data.length < SYNC_BATCH_MAX) return;
      afterId = data[data.length - 1].id;
    }
  }

  /** For a license deleted here: true once the license server has revoked it (or when there is none). */
  @OnAwaitedEvent(LICENSE_DELETED)
  async revokeOnServer({ licenseKey }: LicenseDeletedEvent): Promise<boolean> {
    const client = await this.client();
    if (!client) return true;
    try {
      await client.call('POST', '/licenses/revoke', SyncRevocationResponseDto, { license_key: licenseKey });
      return true;
    } catch (error) {
      this.logger.warn(`Could not revoke ${licenseKey} on the license server: ${(error as Error).message}`);
      return false;
    }
  }

  /** For a device deactivated here: the license server must give the seat back first, or nothing changes. */
  @OnAwaitedEvent(DEVICE_DEACTIVATING)
  async deactivateOnServer({ licenseKey, serverUid }: DeviceDeactivatingEvent): Promise<void> {
    const client = await this.client();
    if (!client) return;
    await this.guarded(
      client.call('POST', '/devices/deactivate', SyncDeactivationResponseDto, { license_key: licenseKey, server_uid: serverUid }),
    );
  }

  private async client(): Promise<LicenseServerClient | null> {
    const { url, api_token, timeout_seconds } = await this.settings.get('license_server');
    return url ? new LicenseServerClient({ url, apiToken: api_token, timeoutSeconds: timeout_seconds }) : null;
  }

  /** A license-server failure becomes a 502 (504 on a timeout) with its reason, and is kept as the last error. */
  private async guarded<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (!(error instanceof LicenseServerError)) throw error;
      await this.settings.recordSyncState({ last_error: error.message });
      throw new ApiError(error.timedOut ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY, error.message);
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Splits items into batches of at most SYNC_BATCH_MAX items and about MAX_PUSH_BYTES of JSON each. */
export function batchesBySize<T>(items: T[], maxBytes = MAX_PUSH_BYTES, maxCount = SYNC_BATCH_MAX): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item));
    if (current.length && (bytes + size > maxBytes || current.length >= maxCount)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}
