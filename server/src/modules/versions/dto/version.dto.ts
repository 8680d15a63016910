import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../../common/list-query.dto';
import { VersionEntity } from '../version.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { type Channel, CHANNELS, VERSION_STATES, type VersionState } from '../versions.constants';

export const SYNC_STATUSES = ['synced', 'local_only', 'pending'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** Synced (sync on and a last-sync time), Local Only (sync explicitly off), Pending (otherwise). */
export function syncStatusOf(version: Pick<VersionEntity, 'license_server_sync' | 'last_sync_at'>): SyncStatus {
  if (version.license_server_sync === false) return 'local_only';
  return version.last_sync_at ? 'synced' : 'pending';
}

/** A version as the Version Management screen sees it, keys included (admin-only). */
export class AdminVersionDto {
  id: number;
  version: string;
  /** YYYY-MM-DD */
  release_date: string;
  /** True exactly when channel is stable. */
  is_stable: boolean;
  is_latest: boolean;
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  @ApiProperty({ enum: VERSION_STATES, enumName: 'VersionState' })
  state: VersionState;
  /** When the version was first published (null while a draft). */
  published_at: Date | null;
  /** When it was yanked (null unless yanked). */
  yanked_at: Date | null;
  /** The share of servers the update API offers it to (100: every one). */
  rollout_percent: number;
  /** A paused rollout offers it to no server. */
  rollout_paused: boolean;
  changelog: string | null;
  download_url: string | null;
  /** Name of the file uploaded with the version, if any. */
  file_name: string | null;
  /** Bytes. */
  file_size: number | null;
  /** SHA-256 (hex) of the uploaded file. */
  file_hash: string | null;
  secret_hash: string | null;
  encryption_key: string | null;
  /** JSON text with os, ram, storage. */
  min_system_requirements: string | null;
  /** Whether the version is pushed to the license server. */
  license_server_sync: boolean;
  last_sync_at: Date | null;
  @ApiProperty({ enum: SYNC_STATUSES, enumName: 'SyncStatus' })
  sync_status: SyncStatus;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
}

export class AdminVersionResponseDto extends Envelope(AdminVersionDto, { message: 'optional' }) {}

export class VersionListMetaDto extends PageMetaDto {
  /** All versions, whatever the search. */
  overall_total: number;
  /** The most recent license-server sync of any version (null: never synced). */
  last_sync_at: Date | null;
}

export class AdminVersionListResponseDto extends PageOf(AdminVersionDto, VersionListMetaDto) {}

export class SupportedUploadsDto {
  os_types: string[];
  architectures: string[];
  /** Extensions a version's own file may have. */
  version_extensions: string[];
  /** Extensions a distribution file may have. */
  file_extensions: string[];
  /** Largest accepted upload, in bytes. */
  max_upload_bytes: number;
}

export class SupportedVersionDto {
  id: number;
  version: string;
  release_date: string;
  is_stable: boolean;
  is_latest: boolean;
}

export class SupportedVersionsDto extends SupportedUploadsDto {
  /** Every version, latest first then newest release. */
  versions: SupportedVersionDto[];
}

export class SupportedVersionsResponseDto extends Envelope(SupportedVersionsDto) {}

export function toAdminVersionDto(version: VersionEntity): AdminVersionDto {
  return {
    id: version.id,
    version: version.version,
    release_date: version.release_date,
    is_stable: version.is_stable,
    is_latest: version.is_latest,
    channel: version.channel,
    state: version.state,
    published_at: version.published_at,
    yanked_at: version.yanked_at,
    rollout_percent: version.rollout_percent,
    rollout_paused: version.rollout_paused,
    changelog: version.changelog,
    download_url: version.download_url,
    file_name: version.file_name,
    file_size: version.file_size,
    file_hash: version.file_hash,
    secret_hash: version.secret_hash,
    encryption_key: version.encryption_key,
    min_system_requirements: version.min_system_requirements,
    license_server_sync: version.license_server_sync,
    last_sync_at: version.last_sync_at,
    sync_status: syncStatusOf(version),
    created_by: version.created_by,
    created_at: version.created_at,
    updated_at: version.updated_at,
  };
}
