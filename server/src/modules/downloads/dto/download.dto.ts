import { OptionalText } from '../../../common/fields';
import { ApiProperty, PickType } from '@nestjs/swagger';
import { ListQueryDto } from '../../../common/list-query.dto';
import { DistributionFileDto } from '../../distribution-files/dto/distribution-file.dto';
import type { DownloadLogEntity } from '../../logs/download-logs.service';
import { DOWNLOAD_CHANNELS, DownloadChannel } from '../../logs/logs.constants';
import { Envelope, PageOf } from '../../../common/envelope';
import { DOWNLOAD_REFUSALS, type DownloadRefusal } from '../../licenses/release-coverage.service';

export class DownloadInfoResponseDto {
  success: boolean;
  /** Name, size, SHA-256 and version of the file (and the rest of its listing). */
  data: DistributionFileDto;
}

export class DownloadLinkDto {
  /** Works without a bearer token until expires_at; any change to it makes it fail. */
  url: string;
  expires_at: Date;
  file_name: string;
  /** Bytes. */
  file_size: number;
  /** SHA-256 (hex). */
  file_hash: string;
  /** curl (resuming), `sha256sum -c`, and for a published release the signed manifest's check (openssl 3): signature, then the file's entry. */
  download_command: string;
  /** Linux packages: download, check, then apt (.deb), dnf (.rpm), tar (.tar.gz) or unzip (.zip); null for other file types. */
  install_command: string | null;
}

export class DownloadLinkResponseDto extends Envelope(DownloadLinkDto) {}

export class DownloadHistoryQueryDto extends PickType(ListQueryDto, ['page', 'limit'] as const) {}

export class DownloadHistoryEntryDto {
  id: number;
  /** Null once the file was deleted (the entry keeps its name and version). */
  file_id: number | null;
  file_name: string;
  version: string | null;
  os_type: string | null;
  architecture: string | null;
  file_size: number | null;
  ip_address: string | null;
  user_agent: string | null;
  @ApiProperty({ enum: DOWNLOAD_CHANNELS, enumName: 'DownloadChannel' })
  via: DownloadChannel;
  created_at: Date;
}

export class DownloadHistoryResponseDto extends PageOf(DownloadHistoryEntryDto) {}

export function toDownloadHistoryEntryDto(log: DownloadLogEntity): DownloadHistoryEntryDto {
  return {
    id: log.id,
    file_id: log.file_id,
    file_name: log.file_name,
    version: log.version,
    os_type: log.os_type,
    architecture: log.architecture,
    file_size: log.file_size,
    ip_address: log.ip_address,
    user_agent: log.user_agent,
    via: log.via,
    created_at: log.created_at,
  };
}

/** The parts of a signed download link (as made by POST /api/download/{id}/link). */
export class SignedDownloadQueryDto {
  /** Unix seconds. */
  @OptionalText(20)
  expires?: string;

  @OptionalText(20)
  user?: string;

  @OptionalText(100)
  signature?: string;
}

/** A download the customer's licenses do not allow (403). */
export class DownloadRefusalDto {
  @ApiProperty({ enum: [403] })
  statusCode: number;
  message: string;
  /** CHANNEL_NOT_GRANTED: no license includes the release's channel; UPDATES_ENDED: the licenses' updates ended before it was published (renew); LICENSE_REQUIRED: the vendor requires a license for every download. */
  @ApiProperty({ enum: DOWNLOAD_REFUSALS, enumName: 'DownloadRefusal' })
  code: DownloadRefusal;
}
