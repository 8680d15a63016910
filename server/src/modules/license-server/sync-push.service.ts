import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { type SyncedDevice } from '../devices/device-sync.service';
import { LicenseSyncService, toSyncedLicense } from '../licenses/license-sync.service';
import { type LicenseEntity } from '../licenses/licenses.service';
import { SettingsService } from '../settings/settings.service';
import { toSyncedVersion, type VersionEntity, VersionSyncService } from '../versions/version-sync.service';
import {
  PushDevicesResponseDto,
  PushDevicesResultDto,
  SyncCountsDto,
  SyncCountsResponseDto,
  SyncRevocationResponseDto,
} from './dto/sync.dto';
import { type SyncQueueKind } from './license-server-sync.constants';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { SyncQueueService } from './sync-queue.service';

/** Request bodies stay well under the other portal's BODY_LIMIT (1 MB by default): long changelogs go in smaller batches. */
const MAX_PUSH_BYTES = 512 * 1024;
/** Batches of one kind the retry queue delivers per run; the rest waits for the next run. */
const MAX_RETRY_ROUNDS = 100;

const without = (keys: string[], found: string[]) => keys.filter((key) => !found.includes(key));

export interface PushOptions {
  /** Whether a failed push joins the retry queue (a full sync retries its own batches instead). */
  queueOnFailure?: boolean;
}

/**
 * Every push to the license server goes through here: in batches, each confirmed batch leaves the retry queue and
 * is stamped as synced, each failed one joins the queue with its reason (and the error is thrown on).
 */
@Injectable()
export class SyncPushService {
  constructor(
    private readonly settings: SettingsService,
    private readonly versions: VersionSyncService,
    private readonly licenses: LicenseSyncService,
    private readonly queue: SyncQueueService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Pushes licenses as they are; those pending here are confirmed (unless changed again meanwhile). Returns how many. */
  async pushLicenses(client: LicenseServerClient, licenses: LicenseEntity[], options: PushOptions = {}): Promise<number> {
    for (const batch of this.batches(licenses)) {
      const keys = batch.map((license) => license.license_key);
      const pushed = batch.map(toSyncedLicense);
      // Read as counts only: the response also holds each license as the server now does (PushLicensesResponseDto), which
      // nothing here reads; checking those 500 states against their DTO would hold the event loop for each batch.
      await this.attempt('license', keys, options, () => client.call('PUT', '/licenses', SyncCountsResponseDto, { licenses: pushed }));
      await this.licenses.markSynced(
        pushed.filter((_, i) => batch[i].synced_at === null),
        new Date(),
      );
      await this.delivered('license', keys);
    }
    return licenses.length;
  }

  /** Pushes versions as they are and marks them synced; returns what the license server created and updated. */
  async pushVersions(client: LicenseServerClient, versions: VersionEntity[], options: PushOptions = {}): Promise<SyncCountsDto> {
    const counts = { created: 0, updated: 0 };
    for (const batch of this.batches(versions)) {
      const numbers = batch.map((version) => version.version);
      const { data } = await this.attempt('version', numbers, options, () =>
        client.call('PUT', '/versions', SyncCountsResponseDto, { versions: batch.map(toSyncedVersion) }),
      );
      counts.created += data.created;
      counts.updated += data.updated;
      await this.versions.markSynced(batch.map((version) => version.id));
      await this.delivered('version', numbers);
    }
    return counts;
  }

  /** Pushes seat-holding devices (a full sync); they are not queued: the full sync retries its own batches. */
  async pushDevices(client: LicenseServerClient, devices: SyncedDevice[]): Promise<PushDevicesResultDto> {
    const counts = { created: 0, unchanged: 0, refused: 0 };
    const pushed = devices.map(({ id: _id, deactivated_at: _deactivated, ...device }) => device);
    for (const batch of this.batches(pushed)) {
      const { data } = await client.call('PUT', '/devices', PushDevicesResponseDto, { devices: batch });
      counts.created += data.created;
      counts.unchanged += data.unchanged;
      counts.refused += data.refused;
      await this.recordPush();
    }
    return counts;
  }

  /** Revokes a license deleted here; a failure queues the revocation. */
  async revoke(client: LicenseServerClient, licenseKey: string): Promise<void> {
    await this.attempt('revocation', [licenseKey], {}, () =>
      client.call('POST', '/licenses/revoke', SyncRevocationResponseDto, { license_key: licenseKey }),
    );
    await this.delivered('revocation', [licenseKey]);
  }

  /**
   * Delivers the queued pushes that are due (all of them with `all`), batch by batch; a kind stops at its first
   * failure (its entries stay queued, with their next try). Returns how many were delivered.
   */
  async retryQueued(client: LicenseServerClient, all = false): Promise<number> {
    const { batchSize } = this.config.licensing.sync;
    let delivered = 0;
    const deliver = async (kind: SyncQueueKind, push: (keys: string[]) => Promise<void>) => {
      try {
        // Delivered entries leave the queue and failed ones wait for their next try, so each round takes new ones.
        for (let round = 0; round < MAX_RETRY_ROUNDS; round++) {
          const keys = (await this.queue.due(kind, batchSize, all)).map((item) => item.item_key);
          if (!keys.length) return;
          await push(keys);
          delivered += keys.length;
        }
      } catch (error) {
        if (!(error instanceof LicenseServerError)) throw error;
      }
    };
    await deliver('license', async (keys) => {
      const licenses = await this.licenses.forKeys(keys);
      // A license deleted meanwhile needs no push (its revocation is queued on its own).
      const found = licenses.map((license) => license.license_key);
      await this.queue.settled('license', without(keys, found));
      await this.pushLicenses(client, licenses);
    });
    await deliver('version', async (numbers) => {
      const versions = await this.versions.forNumbers(numbers);
      const found = versions.map((version) => version.version);
      await this.queue.settled('version', without(numbers, found));
      await this.pushVersions(client, versions);
    });
    await deliver('revocation', async (keys) => {
      for (const key of keys) await this.revoke(client, key);
    });
    return delivered;
  }

  /** Runs one push; a license-server failure is queued (unless told not to) and thrown on. */
  private async attempt<T>(kind: SyncQueueKind, keys: string[], options: PushOptions, push: () => Promise<T>): Promise<T> {
    try {
      return await push();
    } catch (error) {
      if (error instanceof LicenseServerError && options.queueOnFailure !== false) await this.queue.failed(kind, keys, error.message);
      throw error;
    }
  }

  private async delivered(kind: SyncQueueKind, keys: string[]): Promise<void> {
    await this.queue.settled(kind, keys);
    await this.recordPush();
  }

  private async recordPush(): Promise<void> {
    await this.settings.recordSyncState({ last_push_at: new Date().toISOString() });
  }

  /** Batches of at most LICENSE_SERVER_SYNC_BATCH items and about MAX_PUSH_BYTES of JSON each. */
  private batches<T>(items: T[]): T[][] {
    return batchesBySize(items, MAX_PUSH_BYTES, this.config.licensing.sync.batchSize);
  }
}

/** Splits items into batches of at most `maxCount` items and about `maxBytes` of JSON each. */
export function batchesBySize<T>(items: T[], maxBytes: number, maxCount: number): T[][] {
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
