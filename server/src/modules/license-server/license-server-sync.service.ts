import { BeforeApplicationShutdown, HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { ApiError } from '../../common/api-error';
import {
  DEVICE_DEACTIVATING,
  type DeviceDeactivatingEvent,
  LICENSE_CHANGED,
  LICENSE_DELETED,
  LICENSE_SERVER_CHANGED,
  type LicenseDeletedEvent,
  type LicenseServerChangedEvent,
  OnAwaitedEvent,
  OnNotification,
} from '../../common/events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DevicesService } from '../devices/devices.service';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { RemoteLogsService } from '../logs/remote-logs.service';
import { SettingsService } from '../settings/settings.service';
import { VersionSyncService } from '../versions/version-sync.service';
import {
  FullSyncDto,
  LicenseServerHealthDto,
  LicenseServerStatusDto,
  LicenseSyncResultDto,
  ReconcileDto,
  RepairResultDto,
  RetryResultDto,
  SYNC_BATCH_MAX,
  SyncChecksumPageDto,
  SyncDeactivationResponseDto,
  SyncDevicePageDto,
  SyncLicensePageDto,
  SyncQueueItemDto,
  SyncRemoteLogPageDto,
  VersionSyncResultDto,
} from './dto/sync.dto';
import { FullSyncService } from './full-sync.service';
import { LicenseServerClient, LicenseServerError } from './license-server-client';
import { ReconcileService } from './reconcile.service';
import { SyncPushService } from './sync-push.service';
import { SyncQueueService } from './sync-queue.service';
import { SyncQueueItemEntity } from './sync-queue-item.entity';
import { SyncReconcileEntity } from './sync-reconcile.entity';
import { SyncRunEntity } from './sync-run.entity';

/** Push rounds per sync (500 licenses each); anything beyond waits for the next sync. */
const PUSH_ROUNDS = 20;
/** Retry-queue entries the status shows. */
const FAILURES_SHOWN = 20;
/** The longest System Health waits for the license server to answer. */
const PROBE_TIMEOUT_SECONDS = 5;

/**
 * Keeps an external license server in step, when settings name one (license_server.url and api_token):
 * configuring or changing it starts a full sync (every version, license and seat-holding device, resumable);
 * versions and licenses changed here are pushed to it, and a push that fails waits in the retry queue; its
 * licenses, devices and activation log are pulled; a license deleted here is revoked there, and a device
 * deactivated here is deactivated there first; a reconcile compares both sides and a repair brings them together.
 * Without one, this portal is the license server, and a sync only confirms that what is here is live.
 * Every write on either side is an idempotent upsert, so instances (and the worker) that push at the same moment do no harm.
 */
@Injectable()
export class LicenseServerSyncService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LicenseServerSync');
  private queue: Promise<unknown> = Promise.resolve();
  private pushPending = false;
  private timer: NodeJS.Timeout | null = null;
  private working: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly settings: SettingsService,
    private readonly versions: VersionSyncService,
    private readonly licenses: LicenseSyncService,
    private readonly devices: DevicesService,
    private readonly remoteLogs: RemoteLogsService,
    private readonly push: SyncPushService,
    private readonly retries: SyncQueueService,
    private readonly fullSync: FullSyncService,
    private readonly reconciles: ReconcileService,
    private readonly jobs: ScheduledJobsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // ---- the worker: full syncs and retries ------------------------------------------------------

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.work(), this.config.licensing.sync.workerSeconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
    await this.working;
  }

  /**
   * One run of the sync worker (every LICENSE_SERVER_SYNC_WORKER_SECONDS, one instance at a time): continues the
   * full sync in progress for most of the period, then delivers the retries that are due.
   */
  work(): Promise<void> {
    if (this.working || this.stopping.signal.aborted) return this.working ?? Promise.resolve();
    const seconds = this.config.licensing.sync.workerSeconds;
    this.working = (async () => {
      const client = await this.client();
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
    const client = await this.requireClient();
    const run = await this.fullSync.start(client.url, 'manual');
    void this.work();
    return toFullSyncDto(run);
  }

  /** An admin's Retry now: every queued push is tried at once, whatever its backoff. */
  async retryNow(): Promise<RetryResultDto> {
    const client = await this.requireClient();
    const delivered = await this.serially(() => this.push.retryQueued(client, true));
    return { delivered, queued: await this.retries.count() };
  }

  // ---- reconcile -------------------------------------------------------------------------------

  /** Compares both sides now and keeps the drift it finds. */
  async reconcile(): Promise<ReconcileDto> {
    const client = await this.requireClient();
    return toReconcileDto(await this.serially(() => this.guarded(this.reconciles.run(client))));
  }

  async reconcileReport(page: number, limit: number) {
    const report = await this.reconciles.report(page, limit);
    return {
      reconcile: report.reconcile && toReconcileDto(report.reconcile),
      drift: report.drift.map(({ kind, item_key, drift }) => ({ kind, key: item_key, drift })),
      total: report.total,
    };
  }

  /**
   * Repairs what the newest reconcile found (after reconciling, when there is none yet): licenses and versions
   * missing there or different are pushed as they are here; licenses missing here are taken over, as Sync does.
   * Then both sides are compared again.
   */
  async repair(): Promise<RepairResultDto> {
    const client = await this.requireClient();
    return this.serially(() =>
      this.guarded(
        (async () => {
          let found = await this.reconciles.latest();
          if (found?.status !== 'completed' || found.target_url !== client.url) found = await this.reconciles.run(client);
          const result = { pushed_licenses: 0, pushed_versions: 0, pulled_licenses: 0 };
          for await (const numbers of this.reconciles.keys(found.id, 'version', ['missing_there', 'different'])) {
            const versions = await this.versions.forNumbers(numbers);
            await this.push.pushVersions(client, versions);
            result.pushed_versions += versions.length;
          }
          for await (const keys of this.reconciles.keys(found.id, 'license', ['missing_there', 'different'])) {
            result.pushed_licenses += await this.push.pushLicenses(client, await this.licenses.forKeys(keys));
          }
          if (found.missing_here) result.pulled_licenses = (await this.pullLicenses(client)).created;
          return { ...result, reconcile: toReconcileDto(await this.reconciles.run(client)) };
        })(),
      ),
    );
  }

  // ---- status ----------------------------------------------------------------------------------

  async status(): Promise<LicenseServerStatusDto> {
    const { url } = await this.settings.get('license_server');
    const [state, pendingLicenses, queued, failures, run, reconcile] = await Promise.all([
      this.settings.syncState(),
      // Counted only when it is shown: at a million licenses never confirmed, the count takes seconds.
      url ? this.licenses.countPending() : 0,
      this.retries.count(),
      this.retries.worst(FAILURES_SHOWN),
      this.fullSync.latest(),
      this.reconciles.latest(),
    ]);
    const date = (value: string | null) => (value ? new Date(value) : null);
    return {
      external: url !== '',
      url: url || null,
      versions_synced_at: date(state.versions_synced_at),
      licenses_synced_at: date(state.licenses_synced_at),
      last_error: state.last_error,
      last_push_at: date(state.last_push_at),
      last_pull_at: date(state.last_pull_at),
      // While the portal is its own license server nothing waits: a sync confirms what is pending.
      pending: { licenses: url ? pendingLicenses : 0, queued },
      failures: failures.map(toQueueItemDto),
      full_sync: run && toFullSyncDto(run),
      reconcile: reconcile && toReconcileDto(reconcile),
    };
  }

  /** The status, whether the license server answers now, and what is wrong (System Health). */
  async health(): Promise<LicenseServerHealthDto> {
    const status = await this.status();
    const problems: string[] = [];
    let reachable: boolean | null = null;
    let roundTrip: number | null = null;
    const client = await this.client(PROBE_TIMEOUT_SECONDS);
    if (client) {
      const started = process.hrtime.bigint();
      try {
        await client.call('GET', `/checksums?kind=versions&limit=1`, SyncChecksumPageDto);
        reachable = true;
        roundTrip = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      } catch (error) {
        reachable = false;
        problems.push((error as Error).message);
      }
    }
    const { failures, full_sync: run } = status;
    // A reconcile against a license server no longer configured says nothing about the one in use.
    const reconcile = status.external && status.reconcile?.target_url === status.url ? status.reconcile : null;
    if (status.pending.queued) {
      const latest = failures.find((item) => item.last_error)?.last_error ?? 'no reason given';
      problems.push(`${status.pending.queued} push(es) to the license server wait in the retry queue: ${latest}`);
    }
    if (run?.status === 'running' && run.last_error) problems.push(`The full sync with the license server is failing: ${run.last_error}`);
    if (reconcile?.status === 'failed') problems.push(`The last reconcile with the license server failed: ${reconcile.error}`);
    const drift = reconcile?.status === 'completed' ? reconcile.missing_there + reconcile.missing_here + reconcile.different : 0;
    if (drift) problems.push(`The last reconcile found ${drift} record(s) out of step with the license server`);
    return { ...status, reachable, round_trip_ms: roundTrip, problems };
  }

  // ---- the admin's sync actions ----------------------------------------------------------------

  /** The Sync action of one version: 404 for an id that names no version. */
  async syncVersion(id: number): Promise<VersionSyncResultDto> {
    await this.versions.get(id);
    return this.syncVersions([id]);
  }

  /** Pushes the given versions, or every version marked for syncing; they show as synced afterwards. */
  syncVersions(ids?: number[]): Promise<VersionSyncResultDto> {
    return this.serially(async () => {
      const versions = await this.versions.forSync(ids);
      const at = new Date();
      const client = await this.client();
      let result: VersionSyncResultDto = { synced_count: 0, updated_count: versions.length };
      if (client) {
        const counts = await this.guarded(this.push.pushVersions(client, versions));
        result = { synced_count: counts.created, updated_count: counts.updated };
      } else {
        await this.versions.markSynced(
          versions.map((v) => v.id),
          at,
        );
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
    return this.serially(async () => {
      const at = new Date();
      const client = await this.client();
      const result: LicenseSyncResultDto = { synced_new: 0, updated_existing: 0, pushed: 0, devices_updated: 0, remote_logs_added: 0 };
      if (!client) {
        result.updated_existing = await this.licenses.confirmAllPending(at);
      } else {
        result.pushed = await this.guarded(this.pushPendingLicenses(client));
        const pulled = await this.guarded(this.pullLicenses(client));
        result.synced_new = pulled.created;
        result.updated_existing = pulled.updated;
        for await (const devices of this.guardedPages(client, '/devices', SyncDevicePageDto)) {
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
    if (!(await this.client())) return;
    await this.jobs.run('license-server-sync', 300, async () => {
      try {
        await this.syncLicenses();
        const pending = (await this.versions.forSync()).filter((version) => version.last_sync_at === null);
        if (pending.length) await this.syncVersions(pending.map((version) => version.id));
      } catch (error) {
        // Kept as the last error and shown in System Health; the job itself did its part.
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
      pushed += await this.push.pushLicenses(client, pending);
    }
    return pushed;
  }

  /** The license server's licenses, taken over here. */
  private async pullLicenses(client: LicenseServerClient): Promise<{ created: number; updated: number }> {
    const at = new Date();
    const counts = { created: 0, updated: 0 };
    for await (const licenses of client.pages('/licenses', SyncLicensePageDto)) {
      const applied = await this.licenses.applyFromServer(licenses, at);
      counts.created += applied.created;
      counts.updated += applied.updated;
    }
    return counts;
  }

  private async pullRemoteLogs(client: LicenseServerClient): Promise<number> {
    const state = await this.settings.syncState();
    const after = state.remote_logs?.origin === client.url ? state.remote_logs.after_id : 0;
    let added = 0;
    for await (const entries of this.guardedPages(client, '/remote-logs', SyncRemoteLogPageDto, after)) {
      await this.remoteLogs.importFrom(client.url, entries);
      added += entries.length;
      await this.settings.recordSyncState({ remote_logs: { origin: client.url, after_id: entries[entries.length - 1].id } });
    }
    return added;
  }

  /** For a license deleted here: true once the license server has revoked it (or when there is none); else it is queued. */
  @OnAwaitedEvent(LICENSE_DELETED)
  async revokeOnServer({ licenseKey }: LicenseDeletedEvent): Promise<boolean> {
    const client = await this.client();
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
    const client = await this.client();
    if (!client) return;
    await this.guarded(
      client.call('POST', '/devices/deactivate', SyncDeactivationResponseDto, { license_key: licenseKey, server_uid: serverUid }),
    );
  }

  private async client(timeoutSeconds?: number): Promise<LicenseServerClient | null> {
    const { url, api_token, timeout_seconds } = await this.settings.get('license_server');
    if (!url) return null;
    const timeout = Math.min(timeout_seconds, timeoutSeconds ?? timeout_seconds);
    return new LicenseServerClient({ url, apiToken: api_token, timeoutSeconds: timeout, signal: this.stopping.signal });
  }

  private async requireClient(): Promise<LicenseServerClient> {
    const client = await this.client();
    if (!client) throw ApiError.conflict('No external license server is configured: this portal is its own license server');
    return client;
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

  /** Pages of a pull, each call guarded. */
  private async *guardedPages<T extends { id: number }>(
    client: LicenseServerClient,
    path: string,
    pageType: new () => { data: T[] },
    afterId = 0,
  ): AsyncGenerator<T[]> {
    const pages = client.pages(path, pageType, afterId);
    for (;;) {
      const next = await this.guarded(pages.next());
      if (next.done) return;
      yield next.value;
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function toFullSyncDto(run: SyncRunEntity): FullSyncDto {
  return {
    id: run.id,
    target_url: run.target_url,
    reason: run.reason,
    status: run.status,
    phase: run.phase,
    versions: { done: run.versions_done, total: run.versions_total },
    licenses: { done: run.licenses_done, total: run.licenses_total },
    devices: { done: run.devices_done, total: run.devices_total },
    attempts: run.attempts,
    last_error: run.last_error,
    next_attempt_at: run.next_attempt_at,
    started_at: run.started_at,
    updated_at: run.updated_at,
    finished_at: run.finished_at,
  };
}

function toQueueItemDto(item: SyncQueueItemEntity): SyncQueueItemDto {
  const { kind, item_key, attempts, last_error, next_attempt_at, created_at, last_attempt_at } = item;
  return { kind, key: item_key, attempts, last_error, next_attempt_at, created_at, last_attempt_at };
}

function toReconcileDto(reconcile: SyncReconcileEntity): ReconcileDto {
  return {
    id: reconcile.id,
    target_url: reconcile.target_url,
    status: reconcile.status,
    error: reconcile.error,
    licenses: { here: reconcile.licenses_here, there: reconcile.licenses_there },
    versions: { here: reconcile.versions_here, there: reconcile.versions_there },
    missing_there: reconcile.missing_there,
    missing_here: reconcile.missing_here,
    different: reconcile.different,
    started_at: reconcile.started_at,
    finished_at: reconcile.finished_at,
  };
}
