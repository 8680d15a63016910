import { Audit } from '../../common/audit.decorator';
import { Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, Reply, withMessage } from '../../common/response';
import {
  FullSyncDto,
  FullSyncResponseDto,
  LicenseServerStatusDto,
  LicenseServerStatusResponseDto,
  LicenseSyncResponseDto,
  LicenseSyncResultDto,
  ReconcileReportDto,
  ReconcileReportQueryDto,
  ReconcileReportResponseDto,
  RepairResponseDto,
  RepairResultDto,
  RetryResponseDto,
  RetryResultDto,
  VersionSyncResponseDto,
  VersionSyncResultDto,
} from './dto/sync.dto';
import { LicenseServerSyncService } from './license-server-sync.service';
import { ReconcileService } from './reconcile.service';
import { SyncStatusService } from './sync-status.service';
import { SyncWorkerService } from './sync-worker.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

const versionsSynced = (data: VersionSyncResultDto) =>
  withMessage(`Sync completed! ${data.synced_count} new versions, ${data.updated_count} updated`, data);

/**
 * The admin's Sync actions (Version Management, License Management) and the license-server status line.
 * Registered before the versions and licenses controllers, so `versions/sync` is not taken for a version id.
 */
@ApiTags('license-server')
@AdminOnly()
@Controller('admin')
export class AdminSyncController {
  constructor(
    private readonly sync: LicenseServerSyncService,
    private readonly worker: SyncWorkerService,
    private readonly reconciles: ReconcileService,
    private readonly syncStatus: SyncStatusService,
  ) {}

  /**
   * Which license server this portal uses and how the sync stands: last push and pull, pending items, the retry
   * queue's failures with their reasons, the newest full sync with its progress, and the newest reconcile.
   */
  @ApiGetResponse(LicenseServerStatusResponseDto, 'license-server')
  getLicenseServerStatus(): Promise<LicenseServerStatusDto> {
    return this.syncStatus.status();
  }

  /** Starts a full sync (every version, license and seat-holding device) in the background; 409 without a license server. */
  @Post('license-server/full-sync')
  @Audit('sync.full', 'Start a full sync with the license server')
  @ApiEnvelopeResponse(FullSyncResponseDto, { status: 202, message: 'Full sync started' })
  startFullSync(): Promise<FullSyncDto> {
    return this.worker.startFullSync();
  }

  /** Tries every push in the retry queue now, whatever its backoff. */
  @Post('license-server/retry')
  @Audit('sync.retry', 'Retry queued pushes to the license server')
  @ApiEnvelopeResponse(RetryResponseDto)
  async retrySyncQueue(): Promise<Reply<RetryResultDto>> {
    const data = await this.worker.retryNow();
    return withMessage(`${data.delivered} delivered, ${data.queued} still queued`, data);
  }

  /** Compares both sides (counts, and a checksum per license and version by key) and lists the drift. */
  @Post('license-server/reconcile')
  @Audit('sync.reconcile', 'Reconcile with the license server')
  @ApiEnvelopeResponse(ReconcileReportResponseDto)
  async reconcileLicenseServer(@Query() query: ReconcileReportQueryDto): Promise<Reply<ReconcileReportDto>> {
    await this.reconciles.reconcile();
    return this.reconcileReport(query, 'Reconcile completed');
  }

  /** The newest reconcile and one page of its drift: missing there, missing here, different. */
  @ApiGetResponse(ReconcileReportResponseDto, 'license-server/reconcile')
  getReconcileReport(@Query() query: ReconcileReportQueryDto): Promise<Reply<ReconcileReportDto>> {
    return this.reconcileReport(query);
  }

  /** Pushes what is missing or different there, takes over what is missing here, and reconciles again. */
  @Post('license-server/reconcile/repair')
  @Audit('sync.repair', 'Repair the drift with the license server')
  @ApiEnvelopeResponse(RepairResponseDto)
  async repairLicenseServerDrift(): Promise<Reply<RepairResultDto>> {
    const data = await this.reconciles.repair();
    const left = data.reconcile.missing_there + data.reconcile.missing_here + data.reconcile.different;
    return withMessage(`Repair completed: ${left} record(s) still out of step`, data);
  }

  /** Sync with License Server (Version Management): pushes every version marked for syncing. */
  @Get('versions/sync')
  @Audit('sync.versions', 'Sync versions with the license server')
  @ApiEnvelopeResponse(VersionSyncResponseDto)
  async syncVersions(): Promise<Reply<VersionSyncResultDto>> {
    return versionsSynced(await this.sync.syncVersions());
  }

  /** The Sync action of one version: pushes it, and marks it for syncing from now on. */
  @Post('versions/:id/sync')
  @Audit('sync.version', 'Sync version with the license server', 'version')
  @ApiEnvelopeResponse(VersionSyncResponseDto)
  async syncVersion(@IdParam() id: number): Promise<Reply<VersionSyncResultDto>> {
    return versionsSynced(await this.sync.syncVersion(id));
  }

  /** Sync with License Server (License Management): licenses both ways, then devices and the activation log. */
  @Get('licenses/sync')
  @Audit('sync.licenses', 'Sync licenses with the license server')
  @ApiEnvelopeResponse(LicenseSyncResponseDto)
  async syncLicenses(): Promise<Reply<LicenseSyncResultDto>> {
    const data = await this.sync.syncLicenses();
    return withMessage(`Sync completed! ${data.synced_new} new licenses, ${data.updated_existing} updated`, data);
  }

  private async reconcileReport(query: ReconcileReportQueryDto, message?: string): Promise<Reply<ReconcileReportDto>> {
    const [page, limit] = [query.page ?? 1, query.limit ?? 50];
    const { report, total } = await this.reconciles.report(page, limit);
    return new Reply({ message, data: report, meta: pageMeta(total, page, limit) });
  }
}
