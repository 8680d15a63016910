import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { validRange } from 'semver';
import { Envelope } from '../../../common/envelope';
import { IsSemanticVersion } from '../../../common/validation';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { ManifestFileDto, SignedManifestDto } from '../../release-manifests/dto/release-manifest.dto';
import { ARCHITECTURES, type Architecture, CHANNELS, type Channel, OS_TYPES, type OsType } from '../../versions/versions.constants';

/** A semver range as the `semver` package reads it (`1.x`, `^4.2.0`, `>=4.1 <5`). */
const IsVersionRange = () =>
  ValidateBy({
    name: 'isVersionRange',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && validRange(value) !== null,
      defaultMessage: () => 'constraint must be a version range such as 1.x, ^4.2.0 or >=4.1 <5',
    },
  });

/** Which releases a streaming server follows. */
export class ReleaseChoiceQueryDto {
  /** The channel the server follows: it is offered releases of this channel and the steadier ones (beta also gets rc and stable), as far as its license covers them. Default stable. */
  @IsOptional()
  @IsIn(CHANNELS)
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel', required: false })
  channel?: Channel;

  /** Only releases within this semver range (e.g. `1.x` to stay on a major version). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @IsVersionRange()
  constraint?: string;
}

export class PlatformParamDto {
  @IsIn(OS_TYPES)
  @ApiProperty({ enum: OS_TYPES })
  os: OsType;

  @IsIn(ARCHITECTURES)
  @ApiProperty({ enum: ARCHITECTURES })
  arch: Architecture;
}

export class UpgradeQueryDto extends IntersectionType(ReleaseChoiceQueryDto, PlatformParamDto) {
  /** The version the server runs; without it the newest release it may have is offered. */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LENGTH.version)
  @IsSemanticVersion({ message: 'current must be a semantic version such as 1.4.2' })
  current?: string;
}

/** A build of the offered release for the server's OS and architecture: its manifest entry, and a link to it. */
export class UpdateFileDto extends ManifestFileDto {
  /** A short-lived signed link (no token needed). */
  url: string;
  /** When the link stops working. */
  expires_at: Date;
}

/** The release a streaming server should move to, with its builds for its platform and the release's signed manifest. */
export class UpdateOfferDto {
  version: string;
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  /** ISO 8601, UTC. */
  published_at: string;
  /** The version the server said it runs (null when it did not). */
  current: string | null;
  /** It runs a release below the oldest one the vendor supports (Settings: min_supported_version). */
  update_required: boolean;
  /** By name; the first is the one `GET /api/releases/latest/{os}/{arch}` redirects to. */
  files: UpdateFileDto[];
  /** Check a downloaded file against it: the signature (with the key its kid names), then the file's size and SHA-256. */
  manifest: SignedManifestDto;
}

export class UpdateOfferResponseDto extends Envelope(UpdateOfferDto) {}

/** Why the update API refused a streaming server (401 or 403). */
export class UpdateRefusalDto {
  @ApiProperty({ enum: [401, 403] })
  statusCode: number;
  message: string;
  /** LICENSE_KEY_REQUIRED: no `Authorization: License <key>`; NOT_FOUND: an unknown key; REVOKED, PENDING: the license's state; NOT_ACTIVATED: the server holds no seat on it; NO_ACCOUNT: the license's account was deleted. */
  @ApiProperty({ enum: ['LICENSE_KEY_REQUIRED', 'NOT_FOUND', 'REVOKED', 'PENDING', 'NOT_ACTIVATED', 'NO_ACCOUNT'] })
  code: string;
}
