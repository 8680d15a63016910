import { IntBetween, IntFrom, NonEmptyText, OptionalIntBetween, OptionalText, Text } from '../../../common/fields';
import { IsCalendarDay, IsDateTime } from '../../../common/dates';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxDate,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { DEVICE_STATUSES, DeviceStatus } from '../../devices/devices.constants';
import { LICENSE_STATUSES, LicenseStatus } from '../../licenses/licenses.constants';
import { normalizeLicenseKey } from '../../licenses/licenses.service';
import { MAX_EXPIRY } from '../../licenses/licenses.service';
import { SERVER_UID_PATTERN } from './activation.dto';
import { Envelope } from '../../../common/envelope';
import { PageMetaDto } from '../../../common/list-query.dto';
import { DRIFTS, type Drift, SYNC_PHASES, type SyncPhase, SYNC_QUEUE_KINDS, type SyncQueueKind } from '../license-server-sync.constants';
import { MAX_LENGTH } from '../../../database/column-lengths';

/** Items per push, and per page of a pull. */
export const SYNC_BATCH_MAX = 500;

// ---- what a portal pushes ----------------------------------------------------------------------

/** A version as the portal holds it (the file itself stays with the portal). */
export class SyncVersionDto {
  @NonEmptyText(MAX_LENGTH.version)
  version: string;

  @ApiProperty({ format: 'date', example: '2026-11-01' })
  @IsCalendarDay()
  release_date: string;

  @OptionalText(16000)
  changelog: string | null;

  @OptionalText(500)
  download_url: string | null;

  @OptionalText(MAX_LENGTH.fileName)
  file_name: string | null;

  @IsOptional()
  @IntFrom(0)
  file_size: number | null;

  @IsOptional()
  @Matches(/^[0-9a-f]{64}$/)
  file_hash: string | null;

  @OptionalText(MAX_LENGTH.versionSecret)
  secret_hash: string | null;

  @OptionalText(MAX_LENGTH.versionSecret)
  encryption_key: string | null;

  /** JSON text with os, ram, storage. */
  @OptionalText(2000)
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

/** A response's object, checked as `type`. */
const Nested = (type: () => new () => object) => applyDecorators(Type(type), ValidateNested());
/** A response's list, each item checked as `type`. */
const NestedList = (type: () => new () => object) => applyDecorators(Type(type), ValidateNested({ each: true }), IsArray());

export class PushVersionsDto {
  @SyncBatchOf(() => SyncVersionDto)
  versions: SyncVersionDto[];
}

/** Names a license (revocation). Keys are stored in capitals, so they are compared that way. */
export class SyncLicenseKeyDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeLicenseKey(value) : value))
  @NonEmptyText(MAX_LENGTH.licenseKey)
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
  @NonEmptyText(MAX_LENGTH.productName)
  product_name: string;

  @IsEmail()
  @MaxLength(MAX_LENGTH.email)
  user_email: string;

  @ApiProperty({ enum: LICENSE_STATUSES, enumName: 'LicenseStatus' })
  @IsIn(LICENSE_STATUSES)
  status: LicenseStatus;

  @IsDateTime()
  @MaxDate(MAX_EXPIRY)
  expires_at: Date;

  @IntBetween(1, 100000)
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
  @IntFrom(0)
  after_id?: number;

  @OptionalIntBetween(1, SYNC_BATCH_MAX)
  limit?: number;
}

// ---- what the license server answers -----------------------------------------------------------

export class SyncCountsDto {
  @IntFrom(0)
  created: number;

  @IntFrom(0)
  updated: number;
}

export class SyncCountsResponseDto {
  success: boolean;
  @Nested(() => SyncCountsDto)
  data: SyncCountsDto;
}

/** A license as the license server holds it, with its id there (the pull cursor) and its seats. */
export class SyncLicenseStateDto extends SyncLicenseDto {
  @IntFrom(1)
  id: number;

  @IntFrom(0)
  current_activations: number;
}

export class PushLicensesResultDto extends SyncCountsDto {
  @NestedList(() => SyncLicenseStateDto)
  licenses: SyncLicenseStateDto[];
}

export class PushLicensesResponseDto {
  success: boolean;
  @Nested(() => PushLicensesResultDto)
  data: PushLicensesResultDto;
}

export class SyncLicensePageDto {
  success: boolean;
  @NestedList(() => SyncLicenseStateDto)
  data: SyncLicenseStateDto[];
}

/** A device as a portal pushes it (a full sync of a portal that was its own license server until now). */
export class SyncPushedDeviceDto extends SyncDeviceKeyDto {
  @OptionalText(MAX_LENGTH.deviceName)
  device_name: string | null;

  @OptionalText(MAX_LENGTH.hostname)
  hostname: string | null;

  @OptionalText(MAX_LENGTH.productName)
  product: string | null;

  @OptionalText(MAX_LENGTH.version)
  version: string | null;

  @ApiProperty({ enum: DEVICE_STATUSES, enumName: 'DeviceStatus' })
  @IsIn(DEVICE_STATUSES)
  status: DeviceStatus;

  @IsDateTime()
  activated_at: Date;

  @IsOptional()
  @IsDateTime()
  last_activity_at: Date | null;
}

export class PushDevicesDto {
  @SyncBatchOf(() => SyncPushedDeviceDto)
  devices: SyncPushedDeviceDto[];
}

/** A device as the license server holds it, with its id there (the pull cursor). */
export class SyncDeviceDto extends SyncPushedDeviceDto {
  @IntFrom(1)
  id: number;

  @IsOptional()
  @IsDateTime()
  deactivated_at: Date | null;
}

export class SyncDevicePageDto {
  success: boolean;
  @NestedList(() => SyncDeviceDto)
  data: SyncDeviceDto[];
}

/** One call of the license server's activation API. */
export class SyncRemoteLogDto {
  @IntFrom(1)
  id: number;

  @IsIn(['activate', 'validate', 'deactivate'])
  action: string;

  @Text(10)
  level: string;

  @Text(MAX_LENGTH.remoteLogMessage)
  message: string;

  @Text(MAX_LENGTH.licenseKey)
  license_key: string;

  @Text(MAX_LENGTH.serverUid)
  server_uid: string;

  @OptionalText(MAX_LENGTH.hostname)
  hostname: string | null;

  @OptionalText(MAX_LENGTH.productName)
  product: string | null;

  @OptionalText(MAX_LENGTH.version)
  version: string | null;

  @IsBoolean()
  valid: boolean;

  @Text(32)
  code: string;

  @OptionalText(MAX_LENGTH.ip)
  ip_address: string | null;

  @IsDateTime()
  created_at: Date;
}

export class SyncRemoteLogPageDto {
  success: boolean;
  @NestedList(() => SyncRemoteLogDto)
  data: SyncRemoteLogDto[];
}

export class PushDevicesResultDto {
  /** Devices that took a seat here. */
  @IntFrom(0)
  created: number;

  /** Devices this server knew already (it decides about their seats). */
  @IntFrom(0)
  unchanged: number;

  /** Devices whose license is unknown here or has no usable seat left. */
  @IntFrom(0)
  refused: number;
}

export class PushDevicesResponseDto {
  success: boolean;
  @Nested(() => PushDevicesResultDto)
  data: PushDevicesResultDto;
}

export const SYNC_CHECKSUM_KINDS = ['licenses', 'versions'] as const;

/** A page of checksums: the records after `after_id`, oldest first. */
export class SyncChecksumQueryDto extends SyncPageQueryDto {
  @ApiProperty({ enum: SYNC_CHECKSUM_KINDS })
  @IsIn(SYNC_CHECKSUM_KINDS)
  kind: (typeof SYNC_CHECKSUM_KINDS)[number];
}

/** One record as a reconcile compares it: its key (license key or version number) and the checksum of its synced fields. */
export class SyncChecksumDto {
  @IntFrom(1)
  id: number;

  @NonEmptyText(MAX_LENGTH.licenseKey)
  key: string;

  @Matches(/^[\w-]{22}$/)
  checksum: string;
}

export class SyncChecksumPageDto {
  success: boolean;
  @NestedList(() => SyncChecksumDto)
  data: SyncChecksumDto[];
}

export class SyncRevocationDto {
  @IsBoolean()
  found: boolean;

  @IntFrom(0)
  deactivated_installations: number;
}

export class SyncRevocationResponseDto {
  success: boolean;
  @Nested(() => SyncRevocationDto)
  data: SyncRevocationDto;
}

export class SyncDeactivationDto {
  @IsBoolean()
  found: boolean;
}

export class SyncDeactivationResponseDto {
  success: boolean;
  @Nested(() => SyncDeactivationDto)
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

/** How far a full sync has come with one kind of record. */
export class SyncProgressDto {
  done: number;
  total: number;
}

/** A full sync: every version, license and seat-holding device pushed to the license server, in batches, resumable. */
export class FullSyncDto {
  id: number;
  target_url: string;
  /** configured: the license server was set or changed; manual: an admin started it. */
  @ApiProperty({ enum: ['configured', 'manual'] })
  reason: 'configured' | 'manual';
  /** running (also while it waits to retry after a failure), completed, or cancelled (the license server changed). */
  @ApiProperty({ enum: ['running', 'completed', 'cancelled'] })
  status: 'running' | 'completed' | 'cancelled';
  @ApiProperty({ enum: SYNC_PHASES })
  phase: SyncPhase;
  versions: SyncProgressDto;
  licenses: SyncProgressDto;
  devices: SyncProgressDto;
  /** Failures since the last batch that went through. */
  attempts: number;
  last_error: string | null;
  /** While it waits after a failure: when it tries again. */
  next_attempt_at: Date | null;
  started_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export class FullSyncResponseDto extends Envelope(FullSyncDto, { message: 'required' }) {}

/** A push that failed and waits in the retry queue. */
export class SyncQueueItemDto {
  @ApiProperty({ enum: SYNC_QUEUE_KINDS })
  kind: SyncQueueKind;
  /** License key or version number. */
  key: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
  last_attempt_at: Date | null;
}

export class SyncPendingDto {
  /** Licenses changed here that the license server has not confirmed yet. */
  licenses: number;
  /** Pushes in the retry queue. */
  queued: number;
}

export class SyncCountsHereThereDto {
  here: number;
  there: number;
}

/** A comparison of both sides: counts, and how many records are missing there, missing here, or different. */
export class ReconcileDto {
  id: number;
  target_url: string;
  @ApiProperty({ enum: ['running', 'completed', 'failed'] })
  status: 'running' | 'completed' | 'failed';
  error: string | null;
  licenses: SyncCountsHereThereDto;
  versions: SyncCountsHereThereDto;
  missing_there: number;
  missing_here: number;
  different: number;
  started_at: Date;
  finished_at: Date | null;
}

export class LicenseServerStatusDto {
  /** False while this portal is its own license server (no URL configured). */
  external: boolean;
  /** The external license server, or null. */
  url: string | null;
  versions_synced_at: Date | null;
  licenses_synced_at: Date | null;
  /** Why the last sync failed; null after a success. */
  last_error: string | null;
  /** When something was last pushed to the license server. */
  last_push_at: Date | null;
  /** When its licenses and devices were last pulled. */
  last_pull_at: Date | null;
  pending: SyncPendingDto;
  /** The retry queue's first entries (most attempts first), with their reasons. */
  failures: SyncQueueItemDto[];
  /** The newest full sync, or null when there was none. */
  full_sync: FullSyncDto | null;
  /** The newest reconcile, or null. */
  reconcile: ReconcileDto | null;
}

export class LicenseServerStatusResponseDto extends Envelope(LicenseServerStatusDto) {}

export class ReconcileReportQueryDto {
  /** Page of the drift list, from 1. */
  @OptionalIntBetween(1, 1_000_000)
  page?: number;

  /** Drift entries per page (default 50). */
  @OptionalIntBetween(1, 500)
  limit?: number;
}

/** A record out of step: a license (by key) or a version (by number). */
export class SyncDriftItemDto {
  @ApiProperty({ enum: ['license', 'version'] })
  kind: 'license' | 'version';
  key: string;
  @ApiProperty({ enum: DRIFTS })
  drift: Drift;
}

export class ReconcileReportDto {
  /** The newest reconcile, or null when there was none. */
  reconcile: ReconcileDto | null;
  /** One page of what it found. */
  drift: SyncDriftItemDto[];
}

export class ReconcileReportResponseDto extends Envelope(ReconcileReportDto, { message: 'optional', meta: PageMetaDto }) {}

export class RepairResultDto {
  /** Licenses missing there or different, pushed from here. */
  pushed_licenses: number;
  /** Versions missing there or different, pushed from here. */
  pushed_versions: number;
  /** Licenses taken over from the license server (those missing here among them). */
  pulled_licenses: number;
  /** The reconcile run after the repair. */
  reconcile: ReconcileDto;
}

export class RepairResponseDto extends Envelope(RepairResultDto, { message: 'required' }) {}

export class RetryResultDto {
  /** Queued pushes delivered now. */
  delivered: number;
  /** Still queued (they failed again). */
  queued: number;
}

export class RetryResponseDto extends Envelope(RetryResultDto, { message: 'required' }) {}

/** The sync as System Health shows it: the status, whether the license server answers, and what is wrong. */
export class LicenseServerHealthDto extends LicenseServerStatusDto {
  /** Whether the license server answered a sync call just now; null while this portal is its own license server. */
  reachable: boolean | null;
  /** How long that call took. */
  round_trip_ms: number | null;
  /** What is wrong with the sync, one line each; each makes System Health a warning. */
  problems: string[];
}
