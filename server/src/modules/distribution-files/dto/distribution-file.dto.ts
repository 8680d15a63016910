import { ApiProperty } from '@nestjs/swagger';
import type { VersionChoice, VersionEntity } from '../../versions/versions.service';
import { Architecture, ARCHITECTURES, DistributionFileEntity, OS_TYPES, OsType } from '../distribution-file.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { type Channel, CHANNELS, VERSION_STATES, type VersionState } from '../../versions/versions.constants';
import { DOWNLOAD_REFUSALS, type DownloadRefusal, type ReleaseAccess } from '../../licenses/release-coverage.service';

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** A distribution file as the File Management list and the client's downloads show it. */
export class DistributionFileDto {
  id: number;
  file_name: string;
  /** SHA-256 (hex). */
  file_hash: string;
  /** Bytes. */
  file_size: number;
  @ApiProperty({ enum: OS_TYPES, enumName: 'OsType' })
  os_type: OsType;
  @ApiProperty({ enum: ARCHITECTURES, enumName: 'Architecture' })
  architecture: Architecture;
  /** The version number, e.g. 2.1.0. */
  version: string;
  version_id: number;
  /** 1 when the file's version is the latest. */
  @ApiProperty({ enum: [0, 1] })
  is_latest: 0 | 1;
  download_count: number;
  created_at: Date;
  /** Where the signed-in user downloads it: /api/download/{id}. */
  download_url: string;
}

export class DistributionFileResponseDto extends Envelope(DistributionFileDto, { message: 'optional' }) {}

export class DistributionFileListResponseDto extends PageOf(DistributionFileDto) {}

export class FilesByOsDto {
  @ApiProperty({ enum: OS_TYPES, enumName: 'OsType' })
  os_type: OsType;
  count: number;
  downloads: number;
  /** Bytes. */
  size: number;
}

export class FileStatsDto {
  total_files: number;
  total_downloads: number;
  /** Bytes. */
  total_size: number;
  /** One entry per OS that has files. */
  files_by_os: FilesByOsDto[];
}

export class FileStatsResponseDto extends Envelope(FileStatsDto) {}

/** A version in the upload form's select and the Files filter (v{version}, release date, (Latest), (Stable)). */
export class FileVersionChoiceDto {
  id: number;
  version: string;
  release_date: string;
  @ApiProperty({ enum: [0, 1] })
  is_latest: 0 | 1;
  @ApiProperty({ enum: [0, 1] })
  is_stable: 0 | 1;
}

export class FileVersionChoicesResponseDto extends Envelope([FileVersionChoiceDto]) {}

/** What the caller's licenses allow of a release. */
export class ReleaseAccessDto {
  /** A license of the caller covers it: its channel is granted, and it was published before the license's updates ended. */
  covered: boolean;
  /** The caller's licenses grant its channel but their updates ended before it was published: "renew to get". */
  renew: boolean;
  /** Why the caller may not download it (the 403's code); null when they may. */
  @ApiProperty({ enum: DOWNLOAD_REFUSALS, enumName: 'DownloadRefusal', nullable: true })
  refusal: DownloadRefusal | null;
}

/** A version as a client sees it: no keys, no internals; its files for download. */
export class ClientVersionDto {
  id: number;
  version: string;
  @ApiProperty({ enum: [0, 1] })
  is_latest: 0 | 1;
  @ApiProperty({ enum: [0, 1] })
  is_stable: 0 | 1;
  /** Release channel: a version outside stable is shown with its channel, not as an ordinary download. */
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  @ApiProperty({ enum: VERSION_STATES, enumName: 'VersionState' })
  state: VersionState;
  /** YYYY-MM-DD */
  release_date: string;
  changelog: string | null;
  has_files: boolean;
  distribution_files: DistributionFileDto[];
  access: ReleaseAccessDto;
}

/** One page of the catalog: its versions, each with all its files. */
export class ClientVersionListResponseDto extends PageOf(ClientVersionDto) {}

export function toDistributionFileDto(
  file: DistributionFileEntity,
  version: Pick<VersionEntity, 'version' | 'is_latest'>,
): DistributionFileDto {
  return {
    id: file.id,
    file_name: file.file_name,
    file_hash: file.file_hash,
    file_size: file.file_size,
    os_type: file.os_type,
    architecture: file.architecture,
    version: version.version,
    version_id: file.version_id,
    is_latest: flag(version.is_latest),
    download_count: file.download_count,
    created_at: file.created_at,
    download_url: `/api/download/${file.id}`,
  };
}

export function toFileVersionChoiceDto(version: VersionChoice): FileVersionChoiceDto {
  return {
    id: version.id,
    version: version.version,
    release_date: version.release_date,
    is_latest: flag(version.is_latest),
    is_stable: flag(version.is_stable),
  };
}

/** Built field by field from an allow-list, so admin-only columns (secret_hash, encryption_key) cannot slip in. */
export function toClientVersionDto(version: VersionEntity, files: DistributionFileEntity[], access: ReleaseAccess): ClientVersionDto {
  return {
    id: version.id,
    version: version.version,
    is_latest: flag(version.is_latest),
    is_stable: flag(version.is_stable),
    channel: version.channel,
    state: version.state,
    release_date: version.release_date,
    changelog: version.changelog,
    has_files: files.length > 0,
    distribution_files: files.map((file) => toDistributionFileDto(file, version)),
    access,
  };
}
