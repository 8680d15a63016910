import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { Envelope } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { ARCHITECTURES, CHANNELS, OS_TYPES } from '../../versions/versions.constants';
import type { Channel } from '../../versions/versions.constants';

export class ReleaseVersionParamDto {
  /** A release's version number, e.g. 2.1.0 or 3.0.0-beta.1. */
  @IsString()
  @MaxLength(MAX_LENGTH.version)
  @Matches(/^[0-9A-Za-z.+-]+$/, { message: 'version must be a version number such as 2.1.0' })
  version: string;
}

export class ManifestFileDto {
  @ApiProperty({ enum: OS_TYPES })
  os: string;
  @ApiProperty({ enum: ARCHITECTURES })
  arch: string;
  name: string;
  size: number;
  /** SHA-256 of the file, in hex. */
  sha256: string;
}

/** A published release as signed: canonical JSON of exactly these members (RFC 8785 for these values). */
export class ReleaseManifestDto {
  /** The product name (app_info.name). */
  product: string;
  version: string;
  @ApiProperty({ enum: CHANNELS })
  channel: Channel;
  /** ISO 8601, UTC. */
  published_at: string;
  /** By OS, architecture and name. */
  files: ManifestFileDto[];
  /** The key that signed it (GET /api/license-server/public-keys). */
  kid: string;
}

export class SignedManifestDto {
  manifest: ReleaseManifestDto;
  /** Ed25519 over the canonical JSON of `manifest`, in base64. */
  signature: string;
  kid: string;
}

export class SignedManifestResponseDto extends Envelope(SignedManifestDto) {}
