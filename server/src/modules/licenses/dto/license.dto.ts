import { ApiProperty } from '@nestjs/swagger';
import { LICENSE_STATUSES, LicenseEntity, LicenseStatus } from '../license.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { CHANNELS, type Channel } from '../../versions/versions.constants';

/** A license as its owner sees it in My Licenses. */
export class LicenseDto {
  id: number;
  product_name: string;
  license_key: string;
  @ApiProperty({ enum: LICENSE_STATUSES, enumName: 'LicenseStatus' })
  status: LicenseStatus;
  is_trial: boolean;
  expires_at: Date;
  current_activations: number;
  max_activations: number;
  /** The release channel granted (its owner's may go further: see the catalog's access). */
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  /** Releases published after it are not covered; null: the expiry ends the updates. */
  updates_until: Date | null;
  created_at: Date;
}

export class LicenseListResponseDto extends PageOf(LicenseDto) {}

/** A license as the admin License Management screen sees it. */
export class AdminLicenseDto extends LicenseDto {
  user_email: string;
  /** The owner's account; null when no account has this e-mail (or it was deleted). */
  user_id: number | null;
  /** The paid order this license fulfils, if any. */
  order_id: number | null;
  /** When the license server last confirmed the license; null shows as Pending. */
  synced_at: Date | null;
  updated_at: Date;
}

export class AdminLicenseResponseDto extends Envelope(AdminLicenseDto, { message: 'optional' }) {}

export class AdminLicenseListResponseDto extends PageOf(AdminLicenseDto) {}

export class RevokeLicenseResultDto extends AdminLicenseDto {
  /** Devices that were active and are now deactivated. */
  deactivated_installations: number;
}

export class RevokeLicenseResponseDto extends Envelope(RevokeLicenseResultDto, { message: 'required' }) {}

export class DeleteLicenseResultDto {
  id: number;
  license_key: string;
  /** True when the license is gone from the license server too (always, when the portal is its own license server). */
  server_revocation_success: boolean;
  /** Devices that were active and are now deactivated. */
  deactivated_installations: number;
}

export class DeleteLicenseResponseDto extends Envelope(DeleteLicenseResultDto, { message: 'required' }) {}

export class LicenseStatsDto {
  total: number;
  active: number;
  expired: number;
  revoked: number;
  pending: number;
  trial: number;
  paid: number;
  /** Active licenses expiring within 30 days. */
  expiring_soon: number;
  /** Seats in use across all licenses. */
  total_activations: number;
  /** Seats sold across active licenses. */
  total_max_activations: number;
}

export class LicenseStatsResponseDto extends Envelope(LicenseStatsDto) {}

export class GeneratedKeyDto {
  license_key: string;
}

export class GeneratedKeyResponseDto extends Envelope(GeneratedKeyDto) {}

/** POST /api/licenses/verify: whether a key is usable now. Details beyond product and status only for the caller's own keys. */
export class LicenseVerificationDto {
  license_key: string;
  /** True when the key exists, is active and has not expired. */
  valid: boolean;
  @ApiProperty({ enum: ['VALID', 'EXPIRED', 'REVOKED', 'PENDING', 'NOT_FOUND'], enumName: 'LicenseVerificationCode' })
  code: 'VALID' | 'EXPIRED' | 'REVOKED' | 'PENDING' | 'NOT_FOUND';
  @ApiProperty({ enum: LICENSE_STATUSES, enumName: 'LicenseStatus', nullable: true })
  status: LicenseStatus | null;
  product_name: string | null;
  expires_at: Date | null;
  /** Whether the key belongs to the caller. */
  owned: boolean;
  /** Only for the caller's own keys (or for an admin). */
  license: LicenseDto | null;
}

export class LicenseVerificationResponseDto extends Envelope(LicenseVerificationDto) {}

export class AvailableVersionDto {
  id: number;
  version: string;
  /** The product choice for this version: "{app_info.name} v{version}". */
  product_name: string;
  is_latest: boolean;
  is_stable: boolean;
  release_date: string | null;
}

export class AvailableVersionsDto {
  /** Product choices of the admin Create License form: "{app_info.name} Pro", "… Enterprise", "… Basic". */
  products: string[];
  /** Versions a client may take a test or purchased license for. */
  versions: AvailableVersionDto[];
}

export class AvailableVersionsResponseDto extends Envelope(AvailableVersionsDto) {}

/** The products a client may take a test or purchased license for: "{app_info.name} v{version}", latest first. */
export class LicenseProductListResponseDto extends Envelope([String]) {}

export function toLicenseDto(license: LicenseEntity): LicenseDto {
  return {
    id: license.id,
    product_name: license.product_name,
    license_key: license.license_key,
    status: license.status,
    is_trial: license.is_trial,
    expires_at: license.expires_at,
    current_activations: license.current_activations,
    max_activations: license.max_activations,
    channel: license.channel,
    updates_until: license.updates_until,
    created_at: license.created_at,
  };
}

export function toAdminLicenseDto(license: LicenseEntity): AdminLicenseDto {
  return Object.assign(toLicenseDto(license), {
    user_email: license.user_email,
    user_id: license.user_id,
    order_id: license.order_id,
    synced_at: license.synced_at,
    updated_at: license.updated_at,
  });
}
