import { OptionalOneOf, Text, TrimmedText } from '../../../common/fields';
import { IsCalendarDay, ToCalendarDay } from '../../../common/dates';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  registerDecorator,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { ToBoolean, Trim } from '../../../common/transforms';
import { IsSemanticVersion, OptionalNotNull } from '../../../common/validation';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { CHANNELS, type Channel, VERSION_STATES, type VersionState } from '../versions.constants';

export const VERSION_REQUIRED = 'Version is required';
export const VERSION_FORMAT = 'Version must be a semantic version such as 2.1.0 or 3.0.0-beta.1 (no leading v)';
export const RELEASE_DATE_REQUIRED = 'Release date is required';
export const RELEASE_DATE_FORMAT = 'Release date must be a valid date (YYYY-MM-DD)';
export const DOWNLOAD_URL_FORMAT = 'Download URL must be a valid URL';
export const REQUIREMENTS_FORMAT = 'System requirements must be valid JSON';

/** Empty strings from a form mean "not given". */
const EmptyAsNull = () => Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? null : value));

/** JSON text holding an object, such as {"os": "Ubuntu 22.04", "ram": "4 GB", "storage": "10 GB"}. */
function IsJsonObjectText(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isJsonObjectText',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string') return false;
          try {
            const parsed: unknown = JSON.parse(value);
            return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
          } catch {
            return false;
          }
        },
      },
    });
}

/**
 * The column's size as MariaDB counts it: code points in a varchar, UTF-8 bytes in a text column. MaxLength
 * alone does not ensure it: it counts an emoji with its variation selector (2 code points, up to 7 bytes) as one.
 */
function FitsColumn(size: { chars: number } | { bytes: number }, options?: ValidationOptions) {
  const measure = 'bytes' in size ? (text: string) => Buffer.byteLength(text, 'utf8') : (text: string) => [...text].length;
  const max = 'bytes' in size ? size.bytes : size.chars;
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'fitsColumn',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} is too long to store`, ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || measure(value) <= max },
    });
}

/** A MariaDB `text` column holds 65,535 bytes. */
const TEXT_COLUMN_BYTES = 65_535;
/** 16,000 characters of up to 4 bytes each fit a text column. */
const CHANGELOG_MAX = 16_000;
const CHANGELOG_TOO_LONG = `Changelog must be at most ${CHANGELOG_MAX} characters`;

/** Fields shared by the Upload Version form (multipart) and the Edit form (JSON). */
class VersionDetailFields {
  /** What changed; shown to clients under the version ('No description available' when empty). */
  @IsOptional()
  @EmptyAsNull()
  @Text(CHANGELOG_MAX, { message: CHANGELOG_TOO_LONG })
  @FitsColumn({ bytes: TEXT_COLUMN_BYTES }, { message: CHANGELOG_TOO_LONG })
  changelog?: string | null;

  /** http(s) URL where the version can also be fetched. */
  @IsOptional()
  @EmptyAsNull()
  @Trim()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: DOWNLOAD_URL_FORMAT })
  @MaxLength(500)
  @FitsColumn({ chars: 500 })
  download_url?: string | null;

  /** License-server secret for this version (admin-only). */
  @IsOptional()
  @EmptyAsNull()
  @TrimmedText(MAX_LENGTH.versionSecret)
  @FitsColumn({ chars: MAX_LENGTH.versionSecret })
  secret_hash?: string | null;

  /** License-server encryption key for this version (admin-only). */
  @IsOptional()
  @EmptyAsNull()
  @TrimmedText(MAX_LENGTH.versionSecret)
  @FitsColumn({ chars: MAX_LENGTH.versionSecret })
  encryption_key?: string | null;

  /** JSON text with os, ram and storage. */
  @IsOptional()
  @EmptyAsNull()
  @IsJsonObjectText({ message: REQUIREMENTS_FORMAT })
  // 5,000 characters of MaxLength's counting take at most 35,000 bytes: within a text column.
  @MaxLength(5000)
  min_system_requirements?: string | null;

  /** Stable (true) or Beta (false); null is refused. */
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  is_stable?: boolean;

  /** Release channel (stable, rc, beta, alpha); wins over is_stable when both are sent. */
  @OptionalOneOf(CHANNELS, { enumName: 'VersionChannel' })
  channel?: Channel;

  /** draft (admins only), published or yanked (gone from the catalog). */
  @OptionalOneOf(VERSION_STATES, { enumName: 'VersionState' })
  state?: VersionState;

  /** Makes this the one latest version (the previous latest becomes older); null is refused. */
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  is_latest?: boolean;
}

/** Upload Version form: multipart, with an optional file (.zip, .exe, .dmg, .pkg). */
export class UploadVersionDto extends VersionDetailFields {
  /** e.g. 2.1.0 */
  @Trim()
  @IsSemanticVersion({ message: VERSION_FORMAT })
  @MaxLength(MAX_LENGTH.version)
  @IsNotEmpty({ message: VERSION_REQUIRED })
  @IsString({ message: VERSION_REQUIRED })
  version: string;

  /** YYYY-MM-DD (a date-time is cut to its date). */
  @ApiProperty({ format: 'date', example: '2026-11-01' })
  @ToCalendarDay()
  @IsCalendarDay({ message: RELEASE_DATE_FORMAT })
  @IsNotEmpty({ message: RELEASE_DATE_REQUIRED })
  release_date: string;

  /** Push the version to the license server (default on); off keeps it Local Only. */
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  sync_to_license_server?: boolean;

  /** The version's package: .zip, .exe, .dmg or .pkg (optional). */
  @ApiProperty({ type: 'string', format: 'binary', required: false })
  @IsOptional()
  file?: unknown;
}

/**
 * Edit form and the list's toggles: a field left out stays as it is. `null` clears the optional texts
 * (changelog, download_url, secrets, requirements) and is refused for version, release_date and the flags.
 */
export class UpdateVersionDto extends VersionDetailFields {
  @ValidateIf((dto: UpdateVersionDto) => dto.version !== undefined)
  @Trim()
  @IsSemanticVersion({ message: VERSION_FORMAT })
  @MaxLength(MAX_LENGTH.version)
  @IsNotEmpty({ message: VERSION_REQUIRED })
  @IsString({ message: VERSION_REQUIRED })
  version?: string;

  @ApiProperty({ required: false, format: 'date', example: '2026-11-01' })
  @ValidateIf((dto: UpdateVersionDto) => dto.release_date !== undefined)
  @ToCalendarDay()
  @IsCalendarDay({ message: RELEASE_DATE_FORMAT })
  @IsNotEmpty({ message: RELEASE_DATE_REQUIRED })
  release_date?: string;

  /** Whether the version is pushed to the license server (false: Local Only); null is refused. */
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  license_server_sync?: boolean;

  /** Same as license_server_sync (the upload form's name for it); null is refused. */
  @OptionalNotNull()
  @ToBoolean()
  @IsBoolean()
  sync_to_license_server?: boolean;
}

export const VERSION_FLAGS = ['is_stable', 'is_latest'] as const;
export type VersionFlag = (typeof VERSION_FLAGS)[number];

export class ToggleVersionStatusDto {
  /** Which flag to flip: is_stable (Stable/Beta, the default) or is_latest (Latest/Older). */
  @OptionalOneOf(VERSION_FLAGS, { enumName: 'VersionFlag', default: 'is_stable' })
  flag?: VersionFlag;
}
