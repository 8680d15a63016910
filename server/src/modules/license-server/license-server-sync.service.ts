import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import {
  DEVICE_DEACTIVATING,
  type DeviceDeactivatingEvent,
  LICENSE_CHANGED,
  LICENSE_DELETED,
  type LicenseDeletedEvent,
  OnAwaitedEvent,
  OnNotification,
} from '../../common/events';
import { DeviceSyncService } from '../devices/device-sync.service';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { RemoteLogsService } from '../logs/remote-logs.service';
import { SettingsService } from '../settings/settings.service';
import { VersionSyncService } from '../versions/version-sync.service';
import {
  LicenseSyncResultDto,
  SYNC_BATCH_MAX,
  SyncDeactivationResponseDto,
  SyncDevicePageDto,
  SyncLicensePageDto,
  SyncRemoteLogPageDto,
  VersionSyncResultDto,
} from './dto/sync.dto';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { LicenseServerConnection } from './license-server-connection.service';
import { SyncPushService } from './sync-push.service';

/** Push rounds per sync (500 licenses each); anything beyond waits for the next sync. */
const PUSH_ROUNDS = 20;

/**
 * Keeps an external license server in step, when settings name one (license_server.url and api_token): versions
 * and licenses changed here are pushed to it, and a push that fails waits in the retry queue (SyncWorkerService
 * delivers it); its licenses, devices and activation log are pulled; a license deleted here is revoked there, and a
 * device deactivated here is deactivated there first. Without one, this portal is the license server, and a sync
 * only confirms that what is here is live. Every write on either side is an idempotent upsert, so instances (and
 * the worker) that push at the same moment do no harm.
 */
@Injectable()
export class LicenseServerSyncService {
  private readonly logger = new Logger('LicenseServerSync');
  private pushPending = false;

  constructor(
    private readonly connection: LicenseServerConnection,
    private readonly settings: SettingsService,
    private readonly versions: VersionSyncService,
    private readonly licenses: LicenseSyncService,
    private readonly devices: DeviceSyncService,
    private readonly remoteLogs: RemoteLogsService,
    private readonly push: SyncPushService,
    private readonly jobs: ScheduledJobsService,
  ) {}

  /** The Sync action of one version: 404 for an id that names no version. */
  async syncVersion(id: number): Promise<VersionSyncResultDto> {
    await this.versions.get(id);
    return this.syncVersions([id]);
  }

  /** Pushes the given versions, or every version marked for syncing; they show as synced afterwards. */
  syncVersions(ids?: number[]): Promise<VersionSyncResultDto> {
    return this.connection.serially(async () => {
      const versions = await this.versions.forSync(ids);
      const at = new Date();
      const client = await this.connection.client();
      let result: VersionSyncResultDto = { synced_count: 0, updated_count: versions.length };
      if (client) {
        const counts = await this.connection.guarded(this.push.pushVersions(client, versions));
        result = { synced_count: counts.created, updated_count: counts.updated };
      } else {
        const ids = versions.map((v) => v.id);
        await this.versions.markSynced(ids, at);
      }
      await this.settings.recordSyncState({ versions_synced_at: at.toISOString(), last_error: null });
      return result;
    });
  }

  /**
   * Licenses both ways, then devices and the activation log: pending licenses are pushed, then the license
   * server's licenses are taken over (new ones added, known ones brought up to date).
   */
  syncLicenses(): Promise<LicenseSyncResultDto> {
    return this.connection.serially(async () => {
      const at = new Date();
      const client = await this.connection.client();
      const result: LicenseSyncResultDto = { synced_new: 0, updated_existing: 0, pushed: 0, devices_updated: 0, remote_logs_added: 0 };
      if (!client) {
        result.updated_existing = await this.licenses.confirmAllPending(at);
      } else {
        result.pushed = await this.connection.guarded(this.pushPendingLicenses(client));
        const pulled = await this.connection.guarded(this.pullLicenses(client));
        result.synced_new = pulled.created;
        result.updated_existing = pulled.updated;
        for await (const devices of this.connection.guardedPages(client, '/devices', SyncDevicePageDto)) {
          result.devices_updated += await this.devices.mirrorFromServer(devices);
        }
        result.remote_logs_added = await this.pullRemoteLogs(client);
        await this.settings.recordSyncState({ last_pull_at: new Date().toISOString() });
      }
      await this.settings.recordSyncState({ licenses_synced_at: at.toISOString(), last_error: null });
      return result;
    });
  }

  /** Every five minutes (one instance), while an external license server is configured: licenses both ways, and pending versions. */
  @Cron(CronExpression.EVERY_5_MINUTES, { name: 'license-server-sync' })
  async scheduledSync(): Promise<void> {
    if (!(await this.connection.client())) return;
    await this.jobs.run('license-server-sync', 300, async () => {
      try {
        await this.syncLicenses();
        const pending = (await this.versions.forSync()).filter((version) => version.last_sync_at === null);
        if (pending.length) await this.syncVersions(pending.map((version) => version.id));
      } catch (error) {
        // Recorded as the last error and shown in System Health; the job itself did its part.
        this.logger.warn(`Scheduled sync failed: ${(error as Error).message}`);
      }
    });
  }

  /** Licenses changed here reach the license server within moments, in the background; a failed push waits in the retry queue. */
  @OnNotification(LICENSE_CHANGED)
  schedulePush(): void {
    if (this.pushPending) return;
    this.pushPending = true;
    setImmediate(() => {
      this.pushPending = false;
      void this.connection
        .serially(async () => {
          const client = await this.connection.client();
          if (client) await this.pushPendingLicenses(client);
        })
        .catch((error: unknown) => this.logger.warn(`Pushing changed licenses failed: ${(error as Error).message}`));
    });
  }

  /** The license server's licenses, taken over here. */
  async pullLicenses(client: LicenseServerClient): Promise<{ created: number; updated: number }> {
    const at = new Date();
    const counts = { created: 0, updated: 0 };
    for await (const licenses of client.pages('/licenses', SyncLicensePageDto)) {
      const applied = await this.licenses.applyFromServer(licenses, at);
      counts.created += applied.created;
      counts.updated += applied.updated;
    }
    return counts;
  }

  /** For a license deleted here: true once the license server has revoked it (or when there is none); else it is queued. */
  @OnAwaitedEvent(LICENSE_DELETED)
  async revokeOnServer({ licenseKey }: LicenseDeletedEvent): Promise<boolean> {
    const client = await this.connection.client();
    if (!client) return true;
    try {
      await this.push.revoke(client, licenseKey);
      return true;
    } catch (error) {
      if (!(error instanceof LicenseServerError)) throw error;
      this.logger.warn(`Could not revoke ${licenseKey} on the license server (queued for a retry): ${error.message}`);
      return false;
    }
  }

  /** For a device deactivated here: the license server must give the seat back first, or nothing changes. */
  @OnAwaitedEvent(DEVICE_DEACTIVATING)
  async deactivateOnServer({ licenseKey, serverUid }: DeviceDeactivatingEvent): Promise<void> {
    const client = await this.connection.client();
    if (!client) return;
    await this.connection.guarded(
      client.call('POST', '/devices/deactivate', SyncDeactivationResponseDto, { license_key: licenseKey, server_uid: serverUid }),
    );
  }

  /** Pushes pending licenses in batches; one changed again meanwhile stays pending and goes in a later round. */
  private async pushPendingLicenses(client: LicenseServerClient): Promise<number> {
    let pushed = 0;
    for (let round = 0; round < PUSH_ROUNDS; round++) {
      const pending = await this.licenses.pendingForServer(SYNC_BATCH_MAX);
      if (!pending.length) break;
      pushed += await this.push.pushLicenses(client, pending);
    }
    return pushed;
  }

  private async pullRemoteLogs(client: LicenseServerClient): Promise<number> {
    const state = await this.settings.syncState();
    const after = state.remote_logs?.origin === client.url ? state.remote_logs.after_id : 0;
    let added = 0;
    for await (const entries of this.connection.guardedPages(client, '/remote-logs', SyncRemoteLogPageDto, after)) {
      await this.remoteLogs.importFrom(client.url, entries);
      added += entries.length;
      await this.settings.recordSyncState({ remote_logs: { origin: client.url, after_id: entries[entries.length - 1].id } });
    }
    return added;
  }
}
