import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxDate,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DEVICE_STATUSES, DeviceStatus } from '../../devices/devices.constants';
import { LICENSE_STATUSES, LicenseStatus } from '../../licenses/licenses.constants';
import { normalizeLicenseKey } from '../../licenses/licenses.service';
import { MAX_EXPIRY } from '../../licenses/licenses.service';
import { SERVER_UID_PATTERN } from './activation.dto';
import { Envelope } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';

/** Items per push, and per page of a pull. */
export const SYNC_BATCH_MAX = 500;

// ---- what a portal pushes ----------------------------------------------------------------------

/** A version as the portal holds it (the file itself stays with the portal). */
export class SyncVersionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LENGTH.version)
  version: string;

  /** YYYY-MM-DD. */
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  release_date: string;

  @IsOptional()
  @IsString()
  @MaxLength(16000)
  changelog: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  download_url: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.fileName)
  file_name: string | null;

  @IsOptional()
  @IsInt()
  @Min(0)
  file_size: number | null;

  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  file_hash: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.versionSecret)
  secret_hash: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.versionSecret)
  encryption_key: string | null;

  /** JSON text with os, ram, storage. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  min_system_requirements: string | null;

  @IsBoolean()
  is_stable: boolean;

  @IsBoolean()
  is_latest: boolean;
}

/** A pushed batch: at most SYNC_BATCH_MAX items, each checked as `type`. */
function SyncBatchOf(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsArray(), ArrayMaxSize(SYNC_BATCH_MAX), IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
}

export class PushVersionsDto {
  @SyncBatchOf(() => SyncVersionDto)
  versions: SyncVersionDto[];
}

/** Names a license (revocation). Keys are stored in capitals, so they are compared that way. */
export class SyncLicenseKeyDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeLicenseKey(value) : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LENGTH.licenseKey)
  license_key: string;
}

/** Names a device: a streaming server on a license (deactivation). */
export class SyncDeviceKeyDto extends SyncLicenseKeyDto {
  @IsString()
  @Matches(SERVER_UID_PATTERN)
  server_uid: string;
}

/** A license as the portal holds it; seats are counted by the license server. */
export class SyncLicenseDto extends SyncLicenseKeyDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_LENGTH.productName)
  product_name: string;

  @IsEmail()
  @MaxLength(MAX_LENGTH.email)
  user_email: string;

  @ApiProperty({ enum: LICENSE_STATUSES, enumName: 'LicenseStatus' })
  @IsIn(LICENSE_STATUSES)
  status: LicenseStatus;

  @Type(() => Date)
  @IsDate()
  @MaxDate(MAX_EXPIRY)
  expires_at: Date;

  @IsInt()
  @Min(1)
  @Max(100000)
  max_activations: number;

  @IsBoolean()
  is_trial: boolean;
}

export class PushLicensesDto {
  @SyncBatchOf(() => SyncLicenseDto)
  licenses: SyncLicenseDto[];
}

/** A page of a pull: the items after `after_id`, oldest first. */
export class SyncPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after_id?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(SYNC_BATCH_MAX)
  limit?: number;
}

// ---- what the license server answers -----------------------------------------------------------

export class SyncCountsDto {
  @IsInt()
  @Min(0)
  created: number;

  @IsInt()
  @Min(0)
  updated: number;
}

export class SyncCountsResponseDto {
  success: boolean;
  @ValidateNested()
  @Type(() => SyncCountsDto)
  data: SyncCountsDto;
}

/** A license as the license server holds it, with its id there (the pull cursor) and its seats. */
export class SyncLicenseStateDto extends SyncLicenseDto {
  @IsInt()
  @Min(1)
  id: number;

  @IsInt()
  @Min(0)
  current_activations: number;
}

export class PushLicensesResultDto extends SyncCountsDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SyncLicenseStateDto)
  licenses: SyncLicenseStateDto[];
}

export class PushLicensesResponseDto {
  success: boolean;
  @ValidateNested()
  @Type(() => PushLicensesResultDto)
  data: PushLicensesResultDto;
}

export class SyncLicensePageDto {
  success: boolean;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SyncLicenseStateDto)
  data: SyncLicenseStateDto[];
}

export class SyncDeviceDto extends SyncDeviceKeyDto {
  @IsInt()
  @Min(1)
  id: number;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.deviceName)
  device_name: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.hostname)
  hostname: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.productName)
  product: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.version)
  version: string | null;

  @ApiProperty({ enum: DEVICE_STATUSES, enumName: 'DeviceStatus' })
  @IsIn(DEVICE_STATUSES)
  status: DeviceStatus;

  @Type(() => Date)
  @IsDate()
  activated_at: Date;

  @IsOptional()
  @Type(() => Date)
  @IsDate()
  last_activity_at: Date | null;

  @IsOptional()
  @Type(() => Date)
  @IsDate()
  deactivated_at: Date | null;
}

export class SyncDevicePageDto {
  success: boolean;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SyncDeviceDto)
  data: SyncDeviceDto[];
}

/** One call of the license server's activation API. */
export class SyncRemoteLogDto {
  @IsInt()
  @Min(1)
  id: number;

  @IsIn(['activate', 'validate', 'deactivate'])
  action: string;

  @IsString()
  @MaxLength(10)
  level: string;

  @IsString()
  @MaxLength(MAX_LENGTH.remoteLogMessage)
  message: string;

  @IsString()
  @MaxLength(MAX_LENGTH.licenseKey)
  license_key: string;

  @IsString()
  @MaxLength(MAX_LENGTH.serverUid)
  server_uid: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.hostname)
  hostname: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.productName)
  product: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.version)
  version: string | null;

  @IsBoolean()
  valid: boolean;

  @IsString()
  @MaxLength(32)
  code: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.ip)
  ip_address: string | null;

  @Type(() => Date)
  @IsDate()
  created_at: Date;
}

export class SyncRemoteLogPageDto {
  success: boolean;
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SyncRemoteLogDto)
  data: SyncRemoteLogDto[];
}

export class SyncRevocationDto {
  @IsBoolean()
  found: boolean;

  @IsInt()
  @Min(0)
  deactivated_installations: number;
}

export class SyncRevocationResponseDto {
  success: boolean;
  @ValidateNested()
  @Type(() => SyncRevocationDto)
  data: SyncRevocationDto;
}

export class SyncDeactivationDto {
  @IsBoolean()
  found: boolean;
}

export class SyncDeactivationResponseDto {
  success: boolean;
  @ValidateNested()
  @Type(() => SyncDeactivationDto)
  data: SyncDeactivationDto;
}

// ---- the admin's sync actions ------------------------------------------------------------------

export class VersionSyncResultDto {
  /** Versions the license server did not have yet. */
  synced_count: number;
  /** Versions it had, brought up to date (or, while this portal is its own license server, confirmed live). */
  updated_count: number;
}

export class VersionSyncResponseDto extends Envelope(VersionSyncResultDto, { message: 'required' }) {}

export class LicenseSyncResultDto {
  /** Licenses new here, taken from the license server. */
  synced_new: number;
  /** Licenses here that the license server changed (status, expiry, seats), or that were confirmed after a push. */
  updated_existing: number;
  /** Licenses changed here and pushed to the license server. */
  pushed: number;
  /** Devices added or changed here from the license server. */
  devices_updated: number;
  /** Activation API calls taken over from the license server's log. */
  remote_logs_added: number;
}

export class LicenseSyncResponseDto extends Envelope(LicenseSyncResultDto, { message: 'required' }) {}

export class LicenseServerStatusDto {
  /** False while this portal is its own license server (no URL configured). */
  external: boolean;
  /** The external license server, or null. */
  url: string | null;
  versions_synced_at: Date | null;
  licenses_synced_at: Date | null;
  /** Why the last sync failed; null after a success. */
  last_error: string | null;
}

export class LicenseServerStatusResponseDto extends Envelope(LicenseServerStatusDto) {}
