import { Body, Controller, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse, ApiGetResponse } from '../../common/response';
import { SYNC_TOKEN } from '../../openapi';
import { DeviceSyncService } from '../devices/device-sync.service';
import { LicenseSyncService } from '../licenses/license-sync.service';
import { RemoteLogsService } from '../logs/remote-logs.service';
import { VersionSyncService } from '../versions/version-sync.service';
import {
  PushDevicesDto,
  PushDevicesResponseDto,
  PushLicensesDto,
  PushLicensesResponseDto,
  PushVersionsDto,
  SYNC_BATCH_MAX,
  SyncChecksumPageDto,
  SyncChecksumQueryDto,
  SyncCountsResponseDto,
  SyncDeactivationResponseDto,
  SyncDeviceKeyDto,
  SyncDevicePageDto,
  SyncLicenseKeyDto,
  SyncLicensePageDto,
  SyncPageQueryDto,
  SyncRemoteLogPageDto,
  SyncRevocationResponseDto,
} from './dto/sync.dto';
import { SyncTokenGuard } from './sync-token.guard';

/**
 * The sync API: what this portal offers when another portal uses it as its external license server. The other
 * portal pushes versions and licenses (and its devices, in a full sync), pulls licenses, devices and the activation
 * log, compares checksums (a reconcile), and revokes licenses and deactivates devices it removed. Authenticated by LICENSE_SERVER_SYNC_TOKEN, not by a session.
 */
@ApiTags('license-server-sync')
@ApiBearerAuth(SYNC_TOKEN)
@Controller('license-server/sync')
@Public()
@UseGuards(SyncTokenGuard)
export class SyncApiController {
  constructor(
    private readonly versions: VersionSyncService,
    private readonly licenses: LicenseSyncService,
    private readonly devices: DeviceSyncService,
    private readonly remoteLogs: RemoteLogsService,
  ) {}

  /** Creates or updates versions by version number. */
  @Put('versions')
  @ApiEnvelopeResponse(SyncCountsResponseDto)
  pushVersions(@Body() body: PushVersionsDto): Promise<SyncCountsResponseDto['data']> {
    return this.versions.upsertFromPortal(body.versions);
  }

  /** Creates or updates licenses by key (a revoked one loses its devices); answers with each license as stored here. */
  @Put('licenses')
  @ApiEnvelopeResponse(PushLicensesResponseDto)
  pushLicenses(@Body() body: PushLicensesDto): Promise<PushLicensesResponseDto['data']> {
    return this.licenses.upsertFromPortal(body.licenses);
  }

  /**
   * Takes over the seat-holding devices of a portal that was its own license server until now: each takes a seat
   * here as an activation would; devices known here stay as they are.
   */
  @Put('devices')
  @ApiEnvelopeResponse(PushDevicesResponseDto)
  pushDevices(@Body() body: PushDevicesDto): Promise<PushDevicesResponseDto['data']> {
    return this.devices.adoptFromPortal(body.devices);
  }

  /** Key and checksum of each license or version after `after_id`, oldest first: what a reconcile compares. */
  @ApiGetResponse(SyncChecksumPageDto, 'checksums')
  listSyncChecksums(@Query() query: SyncChecksumQueryDto): Promise<SyncChecksumPageDto['data']> {
    const [afterId, limit] = [query.after_id ?? 0, query.limit ?? SYNC_BATCH_MAX];
    return query.kind === 'licenses' ? this.licenses.checksumsAfter(afterId, limit) : this.versions.checksumsAfter(afterId, limit, false);
  }

  /** Licenses after `after_id`, oldest first, with their seats. */
  @ApiGetResponse(SyncLicensePageDto, 'licenses')
  pullLicenses(@Query() query: SyncPageQueryDto): Promise<SyncLicensePageDto['data']> {
    return this.licenses.listForSync(query.after_id ?? 0, query.limit ?? SYNC_BATCH_MAX);
  }

  /** Devices after `after_id`, oldest first, with their license keys. */
  @ApiGetResponse(SyncDevicePageDto, 'devices')
  pullDevices(@Query() query: SyncPageQueryDto): Promise<SyncDevicePageDto['data']> {
    return this.devices.listForSync(query.after_id ?? 0, query.limit ?? SYNC_BATCH_MAX);
  }

  /** This portal's activation API calls after `after_id`, oldest first. */
  @ApiGetResponse(SyncRemoteLogPageDto, 'remote-logs')
  pullRemoteLogs(@Query() query: SyncPageQueryDto): Promise<SyncRemoteLogPageDto['data']> {
    return this.remoteLogs.listOwnSince(query.after_id ?? 0, query.limit ?? SYNC_BATCH_MAX);
  }

  /** Revokes a license the other portal deleted (found: false when this server never had it). */
  @Post('licenses/revoke')
  @ApiEnvelopeResponse(SyncRevocationResponseDto)
  async revokeSyncedLicense(@Body() body: SyncLicenseKeyDto): Promise<SyncRevocationResponseDto['data']> {
    const { found, deactivated } = await this.licenses.revokeByKey(body.license_key);
    return { found, deactivated_installations: deactivated };
  }

  /** Deactivates a device the other portal deactivated, giving its seat back. */
  @Post('devices/deactivate')
  @ApiEnvelopeResponse(SyncDeactivationResponseDto)
  async deactivateSyncedDevice(@Body() body: SyncDeviceKeyDto): Promise<SyncDeactivationResponseDto['data']> {
    return { found: await this.devices.deactivateForPortal(body.license_key, body.server_uid) };
  }
}
