import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { LICENSE_SERVER_CHANGED, type LicenseServerChangedEvent, OnNotification } from '../../common/events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { FullSyncDto, RetryResultDto } from './dto/sync.dto';
import { FullSyncService } from './full-sync.service';
import { LicenseServerConnection } from './license-server-connection.service';
import { SyncPushService } from './sync-push.service';
import { SyncQueueService } from './sync-queue.service';
import { toFullSyncDto } from './sync-views';

/**
 * The sync worker: full syncs (every version, license and seat-holding device, resumable) and the retries of
 * failed pushes, run in the background every LICENSE_SERVER_SYNC_WORKER_SECONDS by one instance at a time.
 * Configuring or changing the license server starts a full sync towards it.
 */
@Injectable()
export class SyncWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LicenseServerSync');
  private timer: NodeJS.Timeout | null = null;
  private working: Promise<void> | null = null;

  constructor(
    private readonly connection: LicenseServerConnection,
    private readonly push: SyncPushService,
    private readonly retries: SyncQueueService,
    private readonly fullSync: FullSyncService,
    private readonly jobs: ScheduledJobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.work(), this.config.licensing.sync.workerSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.connection.stop();
    await this.working;
  }

  /**
   * One run of the sync worker (every LICENSE_SERVER_SYNC_WORKER_SECONDS, one instance at a time): continues the
   * full sync in progress for most of the period, then delivers the retries that are due.
   */
  work(): Promise<void> {
    if (this.working || this.connection.stopped) return this.working ?? Promise.resolve();
    const seconds = this.config.licensing.sync.workerSeconds;
    this.working = (async () => {
      const client = await this.connection.client();
      if (!client) return;
      await this.jobs.run('license-server-sync-worker', seconds, async () => {
        await this.fullSync.continue(client, Date.now() + seconds * 700);
        await this.push.retryQueued(client);
      });
    })()
      .catch((error: unknown) => this.logger.error(`The sync worker failed: ${(error as Error).message}`))
      .finally(() => (this.working = null));
    return this.working;
  }

  /** The license server was set, changed or cleared: a full sync brings the new one in step (none is needed without one). */
  @OnNotification(LICENSE_SERVER_CHANGED)
  async onLicenseServerChanged({ url }: LicenseServerChangedEvent): Promise<void> {
    await this.retries.forgetForNewServer(url !== '');
    if (!url) return this.fullSync.cancel();
    await this.fullSync.start(url, 'configured');
    void this.work();
  }

  /** An admin's Full Sync: every version, license and device pushed again, in the background. */
  async startFullSync(): Promise<FullSyncDto> {
    const client = await this.connection.requireClient();
    const run = await this.fullSync.start(client.url, 'manual');
    void this.work();
    return toFullSyncDto(run);
  }

  /** An admin's Retry now: every queued push is tried at once, whatever its backoff. */
  async retryNow(): Promise<RetryResultDto> {
    const client = await this.connection.requireClient();
    const delivered = await this.connection.serially(() => this.push.retryQueued(client, true));
    return { delivered, queued: await this.retries.count() };
  }
}
