import { Audit } from '../../common/audit.decorator';
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { LicenseServerStatusResponseDto, LicenseSyncResponseDto, VersionSyncResponseDto } from './dto/sync.dto';
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

  /** Which license server this portal uses, and when it last synced with it. */
  @Get('license-server')
  async getLicenseServerStatus(): Promise<LicenseServerStatusResponseDto> {
    return { success: true, data: await this.sync.status() };
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
}
