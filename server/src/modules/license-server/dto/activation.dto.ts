import { OptionalTrimmedText } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ARCHITECTURES, type Architecture, OS_TYPES, type OsType } from '../../versions/versions.constants';
import { Trim } from '../../../common/transforms';
import { ACTIVATION_CODES, ActivationCode, DEVICE_STATUSES, DeviceStatus } from '../../devices/devices.constants';
import { LICENSE_STATUSES, LicenseStatus } from '../../licenses/licenses.constants';
import { Envelope } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';

export const SERVER_UID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Who is asking: the license and the streaming server, plus a fresh nonce the signed answer echoes. */
export class LicenseServerRequestDto {
  /** @example SH-7K2QD-M9XJ4-TA1VC-8PZRN-B3HWE */
  @Trim()
  @IsString({ message: 'license_key is required' })
  @IsNotEmpty({ message: 'license_key is required' })
  @MaxLength(MAX_LENGTH.licenseKey)
  license_key: string;

  /**
   * The server's stable identity: 8 to 128 of A-Z a-z 0-9 . _ : - (e.g. a UUID kept on disk).
   * @example 3f8a2c1e-5b7d-4e9f-a6c2-0d1e2f3a4b5c
   */
  @IsString({ message: 'server_uid is required' })
  @Matches(SERVER_UID_PATTERN, { message: 'server_uid must be 8 to 128 letters, digits, dots, underscores, colons or hyphens' })
  server_uid: string;

  /**
   * A new random value per request (16 to 128 of A-Z a-z 0-9 _ -); the response echoes it under the signature.
   * @example q7Z2xV9mK4pR8sT1wY6nB3cD
   */
  @IsString({ message: 'nonce is required' })
  @Matches(NONCE_PATTERN, { message: 'nonce must be 16 to 128 letters, digits, underscores or hyphens' })
  nonce: string;
}

/** activate and validate also tell the portal what the server is and runs. */
export class ActivationRequestDto extends LicenseServerRequestDto {
  /** @example Studio encoder 1 */
  @OptionalTrimmedText(MAX_LENGTH.deviceName)
  device_name?: string;

  /** @example encoder-1.example.com */
  @OptionalTrimmedText(MAX_LENGTH.hostname)
  hostname?: string;

  /**
   * The product the server runs.
   * @example StreamHub
   */
  @OptionalTrimmedText(MAX_LENGTH.productName)
  product?: string;

  /**
   * Its version.
   * @example 2.1.0
   */
  @OptionalTrimmedText(MAX_LENGTH.version)
  version?: string;

  /** The server's operating system (the update API's `os`). */
  @ApiProperty({ enum: OS_TYPES, required: false, example: 'linux' })
  @IsOptional()
  @IsIn(OS_TYPES)
  os?: OsType;

  /** Its architecture (the update API's `arch`). */
  @ApiProperty({ enum: ARCHITECTURES, required: false, example: 'x64' })
  @IsOptional()
  @IsIn(ARCHITECTURES)
  arch?: Architecture;
}

export class DeactivationRequestDto extends LicenseServerRequestDto {}

export class SignedLicenseSummaryDto {
  license_key: string;
  product_name: string;
  @ApiProperty({ enum: LICENSE_STATUSES, enumName: 'LicenseStatus' })
  status: LicenseStatus;
  is_trial: boolean;
  /** ISO 8601. */
  expires_at: string;
  max_activations: number;
  current_activations: number;
}

export class SignedDeviceSummaryDto {
  server_uid: string;
  @ApiProperty({ enum: DEVICE_STATUSES, enumName: 'DeviceStatus' })
  status: DeviceStatus;
  /** ISO 8601. */
  activated_at: string;
  last_activity_at: string | null;
  deactivated_at: string | null;
}

/**
 * The signed answer. `signature` is Ed25519 (base64) over the canonical JSON (sorted keys, no whitespace) of every
 * other member; check it with the public key named by `key_id`, and check that nonce, license_key and server_uid are
 * the ones you sent, so an answer cannot be replayed for another request.
 */
export class ActivationAnswerDto {
  @ApiProperty({ enum: ['activate', 'validate', 'deactivate'] })
  action: 'activate' | 'validate' | 'deactivate';
  /** True when this server may run under the license now. */
  valid: boolean;
  @ApiProperty({ enum: ACTIVATION_CODES, enumName: 'ActivationCode' })
  code: ActivationCode;
  message: string;
  nonce: string;
  license_key: string;
  server_uid: string;
  /** ISO 8601: when the portal answered. */
  issued_at: string;
  key_id: string;
  /** How often the server should validate; a server silent for DEVICE_INACTIVE_AFTER_SECONDS shows as inactive. */
  heartbeat_seconds: number;
  license: SignedLicenseSummaryDto | null;
  device: SignedDeviceSummaryDto | null;
  /** The newest release the license covers (its channels, published before its updates end); null for an unknown key or while none is. */
  newest_covered: string | null;
  /** The newest covered release above the one the server runs (sent as `version`, now or at an earlier call); null when it runs that one or a later one, or never said. */
  update_available: string | null;
  /** The server runs a release below the product's minimum supported version (settings app_info.min_supported_version). */
  update_required: boolean;
  signature: string;
}

export class ActivationResponseDto {
  /** True when the requested operation succeeded (activated, valid, deactivated). */
  success: boolean;
  data: ActivationAnswerDto;
}

export class PublicKeyDto {
  @ApiProperty({ enum: ['Ed25519'] })
  algorithm: 'Ed25519';
  key_id: string;
  /** SubjectPublicKeyInfo in PEM. */
  public_key_pem: string;
}

export class PublicKeyResponseDto extends Envelope(PublicKeyDto) {}

/** A key that verifies what the portal signed: the current one, or a previous one not removed yet. */
export class ListedPublicKeyDto {
  /** The key id that signed data carries (`kid`, `key_id`). */
  kid: string;
  @ApiProperty({ enum: ['Ed25519'] })
  algorithm: 'Ed25519';
  /** SubjectPublicKeyInfo in PEM. */
  public_key_pem: string;
  /** Whether this key signs now (exactly one does). */
  current: boolean;
  created_at: Date;
}

export class PublicKeysDto {
  /** Newest first; the current key first of all. */
  keys: ListedPublicKeyDto[];
}

export class PublicKeysResponseDto extends Envelope(PublicKeysDto) {}
