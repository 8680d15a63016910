import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DeviceSyncService } from '../devices/device-sync.service';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { VersionSyncService } from '../versions/version-sync.service';
import { SyncChecksumPageDto } from './dto/sync.dto';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { SyncPushService } from './sync-push.service';
import { retryAt } from './sync-queue.service';
import { SyncRunEntity } from './sync-run.entity';
import { SyncRunsRepository } from './sync-runs.repository';

/**
 * Full syncs: when the license server is configured or changed, every version, license and seat-holding device
 * is pushed to it, so what this portal issued while it was its own license server (or while another one served)
 * is known there. A run goes batch by batch; after each batch its phase, cursor and progress are stored, so a
 * failure (retried with backoff) or a restart continues where it stopped.
 */
@Injectable()
export class FullSyncService {
  private readonly logger = new Logger('FullSync');

  constructor(
    private readonly runs: SyncRunsRepository,
    private readonly versions: VersionSyncService,
    private readonly licenses: LicenseSyncService,
    private readonly devices: DeviceSyncService,
    private readonly push: SyncPushService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts a full sync towards `url` (a run in progress is cancelled: its server is no longer the one). */
  async start(url: string, reason: SyncRunEntity['reason']): Promise<SyncRunEntity> {
    await this.cancel();
    const [versions, licenses, devices] = await Promise.all([
      this.versions.countForSync(),
      this.licenses.countAll(),
      this.devices.countSeatHolders(),
    ]);
    const now = new Date();
    return this.runs.insert({
      target_url: url,
      reason,
      status: 'running',
      phase: 'versions',
      cursor_id: 0,
      versions_total: versions,
      licenses_total: licenses,
      devices_total: devices,
      attempts: 0,
      last_error: null,
      next_attempt_at: null,
      started_at: now,
      updated_at: now,
      finished_at: null,
    });
  }

  /** Cancels the run in progress, if any (the license server changed or is gone). */
  async cancel(): Promise<void> {
    await this.runs.cancelRunning(new Date());
  }

  latest(): Promise<SyncRunEntity | null> {
    return this.runs.latest();
  }

  /**
   * Continues the run in progress towards this client's server, batch after batch until `deadline` (ms since the
   * epoch) or the end; a license-server failure stops it until its next try. Returns the run, or null.
   */
  async continue(client: LicenseServerClient, deadline: number): Promise<SyncRunEntity | null> {
    const run = await this.runs.latestRunning();
    if (!run || run.target_url !== client.url) return null;
    if (run.next_attempt_at && run.next_attempt_at.getTime() > Date.now()) return run;
    while (run.status === 'running' && Date.now() < deadline) {
      try {
        await this.step(client, run);
        run.attempts = 0;
        run.last_error = null;
        run.next_attempt_at = null;
      } catch (error) {
        if (!(error instanceof LicenseServerError)) throw error;
        run.attempts++;
        run.last_error = error.message.slice(0, 500);
        run.next_attempt_at = retryAt(this.config, run.attempts);
        this.logger.warn(`Full sync with ${run.target_url} failed (attempt ${run.attempts}): ${error.message}`);
      }
      run.updated_at = new Date();
      // Stored only while the run is still the current one: a run cancelled meanwhile stays cancelled.
      if (!(await this.runs.storeProgress(run)) || run.last_error) break;
      // Yield to other requests between batches (on SQLite a batch's reads and writes run without a pause).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return run;
  }

  /** Pushes the next batch of the run's phase, or moves on to the next phase when this one is through. */
  private async step(client: LicenseServerClient, run: SyncRunEntity): Promise<void> {
    const limit = this.config.licensing.sync.batchSize;
    const after = run.cursor_id;
    let lastId: number | null = null;
    // First a call that needs the token: a run towards a server that does not respond, or refuses this portal, fails
    // with the reason instead of completing with nothing to push.
    if (run.phase === 'versions' && after === 0) await client.call('GET', '/checksums?kind=versions&limit=1', SyncChecksumPageDto);
    if (run.phase === 'versions') {
      const batch = await this.versions.forSyncAfter(after, limit);
      if (batch.length) await this.push.pushVersions(client, batch, { queueOnFailure: false });
      run.versions_done += batch.length;
      lastId = batch.at(-1)?.id ?? null;
    } else if (run.phase === 'licenses') {
      const batch = await this.licenses.batchAfter(after, limit);
      if (batch.length) await this.push.pushLicenses(client, batch, { queueOnFailure: false });
      run.licenses_done += batch.length;
      lastId = batch.at(-1)?.id ?? null;
    } else if (run.phase === 'devices') {
      const batch = await this.devices.seatHoldersAfter(after, limit);
      if (batch.length) await this.push.pushDevices(client, batch);
      run.devices_done += batch.length;
      lastId = batch.at(-1)?.id ?? null;
    }
    if (lastId !== null) {
      run.cursor_id = lastId;
      return;
    }
    // This phase is through: records added while it ran count in its total.
    if (run.phase === 'versions') run.versions_total = Math.max(run.versions_total, run.versions_done);
    if (run.phase === 'licenses') run.licenses_total = Math.max(run.licenses_total, run.licenses_done);
    if (run.phase === 'devices') run.devices_total = Math.max(run.devices_total, run.devices_done);
    run.cursor_id = 0;
    run.phase = run.phase === 'versions' ? 'licenses' : run.phase === 'licenses' ? 'devices' : 'done';
    if (run.phase === 'done') {
      run.status = 'completed';
      run.finished_at = new Date();
    }
  }
}
