import { Audit } from '../../common/audit.decorator';
import { Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  FullSyncResponseDto,
  LicenseServerStatusResponseDto,
  LicenseSyncResponseDto,
  ReconcileReportQueryDto,
  ReconcileReportResponseDto,
  RepairResponseDto,
  RetryResponseDto,
  VersionSyncResponseDto,
} from './dto/sync.dto';
import { LicenseServerSyncService } from './license-server-sync.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

/**
 * The admin's Sync actions (Version Management, License Management) and the license-server status line.
 * Registered before the versions and licenses controllers, so `versions/sync` is not taken for a version id.
 */
@ApiTags('license-server')
@AdminOnly()
@Controller('admin')
export class AdminSyncController {
  constructor(private readonly sync: LicenseServerSyncService) {}

  /**
   * Which license server this portal uses and how the sync stands: last push and pull, pending items, the retry
   * queue's failures with their reasons, the newest full sync with its progress, and the newest reconcile.
   */
  @Get('license-server')
  async getLicenseServerStatus(): Promise<LicenseServerStatusResponseDto> {
    return { success: true, data: await this.sync.status() };
  }

  /** Starts a full sync (every version, license and seat-holding device) in the background; 409 without a license server. */
  @Post('license-server/full-sync')
  @Audit('sync.full', 'Start a full sync with the license server')
  @HttpCode(HttpStatus.ACCEPTED)
  async startFullSync(): Promise<FullSyncResponseDto> {
    return { success: true, message: 'Full sync started', data: await this.sync.startFullSync() };
  }

  /** Tries every push in the retry queue now, whatever its backoff. */
  @Post('license-server/retry')
  @Audit('sync.retry', 'Retry queued pushes to the license server')
  @HttpCode(200)
  async retrySyncQueue(): Promise<RetryResponseDto> {
    const data = await this.sync.retryNow();
    return { success: true, message: `${data.delivered} delivered, ${data.queued} still queued`, data };
  }

  /** Compares both sides (counts, and a checksum per license and version by key) and lists the drift. */
  @Post('license-server/reconcile')
  @Audit('sync.reconcile', 'Reconcile with the license server')
  @HttpCode(200)
  async reconcileLicenseServer(@Query() query: ReconcileReportQueryDto): Promise<ReconcileReportResponseDto> {
    await this.sync.reconcile();
    return this.reconcileReport(query, 'Reconcile completed');
  }

  /** The newest reconcile and one page of its drift: missing there, missing here, different. */
  @Get('license-server/reconcile')
  async getReconcileReport(@Query() query: ReconcileReportQueryDto): Promise<ReconcileReportResponseDto> {
    return this.reconcileReport(query);
  }

  /** Pushes what is missing or different there, takes over what is missing here, and reconciles again. */
  @Post('license-server/reconcile/repair')
  @Audit('sync.repair', 'Repair the drift with the license server')
  @HttpCode(200)
  async repairLicenseServerDrift(): Promise<RepairResponseDto> {
    const data = await this.sync.repair();
    const left = data.reconcile.missing_there + data.reconcile.missing_here + data.reconcile.different;
    return { success: true, message: `Repair completed: ${left} record(s) still out of step`, data };
  }

  /** Sync with License Server (Version Management): pushes every version marked for syncing. */
  @Get('versions/sync')
  @Audit('sync.versions', 'Sync versions with the license server')
  async syncVersions(): Promise<VersionSyncResponseDto> {
    const data = await this.sync.syncVersions();
    return { success: true, message: `Sync completed! ${data.synced_count} new versions, ${data.updated_count} updated`, data };
  }

  /** The Sync action of one version: pushes it, and marks it for syncing from now on. */
  @Post('versions/:id/sync')
  @Audit('sync.version', 'Sync version with the license server', 'version')
  @HttpCode(200)
  async syncVersion(@IdParam() id: number): Promise<VersionSyncResponseDto> {
    const data = await this.sync.syncVersion(id);
    return { success: true, message: `Sync completed! ${data.synced_count} new versions, ${data.updated_count} updated`, data };
  }

  /** Sync with License Server (License Management): licenses both ways, then devices and the activation log. */
  @Get('licenses/sync')
  @Audit('sync.licenses', 'Sync licenses with the license server')
  async syncLicenses(): Promise<LicenseSyncResponseDto> {
    const data = await this.sync.syncLicenses();
    return { success: true, message: `Sync completed! ${data.synced_new} new licenses, ${data.updated_existing} updated`, data };
  }

  private async reconcileReport(query: ReconcileReportQueryDto, message?: string): Promise<ReconcileReportResponseDto> {
    const [page, limit] = [query.page ?? 1, query.limit ?? 50];
    const { total, ...data } = await this.sync.reconcileReport(page, limit);
    return {
      success: true,
      ...(message ? { message } : {}),
      data,
      meta: { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) },
    };
  }
}
