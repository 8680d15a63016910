import { Injectable } from '@nestjs/common';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { SettingsService } from '../settings/settings.service';
import { LicenseServerHealthDto, LicenseServerStatusDto, SyncChecksumPageDto } from './dto/sync.dto';
import { FullSyncService } from './full-sync.service';
import { LicenseServerConnection } from './license-server-connection.service';
import { ReconcileService } from './reconcile.service';
import { SyncQueueService } from './sync-queue.service';
import { toFullSyncDto, toQueueItemDto, toReconcileDto } from './sync-views';

/** Retry-queue entries the status shows. */
const FAILURES_SHOWN = 20;
/** The longest System Health waits for the license server to respond. */
const PROBE_TIMEOUT_SECONDS = 5;

/** How the sync with the license server stands: the admin's status line, and System Health's view of it. */
@Injectable()
export class SyncStatusService {
  constructor(
    private readonly connection: LicenseServerConnection,
    private readonly settings: SettingsService,
    private readonly licenses: LicenseSyncService,
    private readonly retries: SyncQueueService,
    private readonly fullSync: FullSyncService,
    private readonly reconciles: ReconcileService,
  ) {}

  async status(): Promise<LicenseServerStatusDto> {
    const { url } = await this.settings.get('license_server');
    const [state, pendingLicenses, queued, failures, run, reconcile] = await Promise.all([
      this.settings.syncState(),
      // Counted only when it is shown: at a million licenses never confirmed, the count is slow.
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

  /** The status, whether the license server responds now, and what is wrong (System Health). */
  async health(): Promise<LicenseServerHealthDto> {
    const status = await this.status();
    const problems: string[] = [];
    let reachable: boolean | null = null;
    let roundTrip: number | null = null;
    const client = await this.connection.client(PROBE_TIMEOUT_SECONDS);
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
}
