import { IntBetween, OptionalOneOf, OptionalText, TrimmedText } from '../../../common/fields';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PartialType, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { CHANNELS, type Channel } from '../../versions/versions.constants';
import { IsBoolean, IsISO8601, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { NormalizeEmail, ToBoolean, Trim } from '../../../common/transforms';
import { OptionalNotNull } from '../../../common/validation';
import { LICENSE_STATUSES, LicenseStatus } from '../license.entity';

export const ADMIN_LICENSE_SORT_KEYS = ['license_key', 'expires_at', 'created_at'] as const;
export type AdminLicenseSortKey = (typeof ADMIN_LICENSE_SORT_KEYS)[number];
export const MAX_ACTIVATIONS_LIMIT = 10_000;

/** An ISO 8601 date or date-time, or null (or left out, or empty): the license's expiry ends its updates. */
const UpdatesUntil = () =>
  applyDecorators(
    ApiProperty({ required: false, nullable: true, type: String, format: 'date-time', example: '2027-12-31' }),
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value)),
    IsOptional(),
    IsISO8601({ strict: true }, { message: 'updates_until must be an ISO 8601 date' }),
  );

/**
 * `search` finds keys by their start (any case, with or without hyphens and the SH- prefix), e-mails by their
 * start, and product names containing it; `status` is as of now (an active license past its expiry is expired);
 * `limit` defaults to 25.
 */
export class ListAdminLicensesQueryDto extends ListQueryDto {
  @OptionalOneOf(ADMIN_LICENSE_SORT_KEYS, { default: 'created_at' })
  sort?: AdminLicenseSortKey;

  @OptionalOneOf(LICENSE_STATUSES, { enumName: 'LicenseStatus' })
  status?: LicenseStatus;

  /** true: only test licenses; false: only purchased or admin-made ones. */
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  is_trial?: boolean;
}

export class CreateAdminLicenseDto {
  /** One of "{app_info.name} Pro", "{app_info.name} Enterprise", "{app_info.name} Basic". */
  @Trim()
  @IsString({ message: 'Product is required' })
  @IsNotEmpty({ message: 'Product is required' })
  @MaxLength(MAX_LENGTH.productName)
  product_name: string;

  /** The licensee; linked to the account with this e-mail when there is one. */
  @NormalizeEmail()
  @IsNotEmpty({ message: 'User e-mail is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  user_email: string;

  /** ISO 8601 date or date-time; must be in the future. */
  @ApiProperty({ format: 'date-time', example: '2027-12-31T23:59:59Z' })
  @IsNotEmpty({ message: 'Expiry date is required' })
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date' })
  expires_at: string;

  /** Devices that may activate the license (1 to 10000, default 1). */
  @OptionalNotNull()
  @IntBetween(1, MAX_ACTIVATIONS_LIMIT)
  max_activations?: number;

  /** Optional; generated when empty. Typed keys must look like SH-XXXXX-XXXXX-… and be unused. */
  @IsOptional()
  @ValidateIf((dto: CreateAdminLicenseDto) => dto.license_key !== '')
  @TrimmedText(MAX_LENGTH.licenseKey)
  license_key?: string;

  /** 'active' (default) or 'pending' (not usable until activated). */
  @ApiProperty({ enum: ['active', 'pending'], required: false, default: 'active' })
  @IsOptional()
  @IsIn(['active', 'pending'])
  status?: 'active' | 'pending';

  /** Marks a test license (default false). */
  @OptionalNotNull()
  @IsBoolean()
  is_trial?: boolean;

  /** The release channel granted: this one and every one before it (stable < rc < beta < alpha); default stable. */
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel', required: false, default: 'stable' })
  @OptionalNotNull()
  @IsIn(CHANNELS)
  channel?: Channel;

  /** The end of updates: releases published after it are not covered (ISO 8601 date or date-time); empty or null: the expiry. */
  @UpdatesUntil()
  updates_until?: string | null;
}

/**
 * Edits a license: a field left out stays as it is; `null` is refused (no field of a license can be emptied).
 * The key never changes; status changes go through revoke, activate and extend. A new expiry may lie in the
 * past (the license then expires).
 */
export class UpdateAdminLicenseDto extends PartialType(
  PickType(CreateAdminLicenseDto, ['product_name', 'user_email', 'max_activations', 'is_trial', 'channel', 'updates_until'] as const),
  { skipNullProperties: false },
) {
  @ApiProperty({ required: false, format: 'date-time', example: '2027-12-31T23:59:59Z' })
  @OptionalNotNull()
  @IsNotEmpty({ message: 'Expiry date is required' })
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date' })
  expires_at?: string;
}

/** How far to extend: `days` or `months` (not both); default 30 days. Counted from the current expiry, or from now if it has passed. */
export class ExtendLicenseDto {
  @OptionalNotNull()
  @IntBetween(1, 3650)
  days?: number;

  @OptionalNotNull()
  @IntBetween(1, 120)
  months?: number;
}

export class ExportLicensesQueryDto {
  @ApiProperty({ enum: ['csv', 'json'], required: false, default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'json'])
  format?: 'csv' | 'json';

  /** Same search as the list. */
  @OptionalText(200)
  search?: string;

  @OptionalOneOf(LICENSE_STATUSES, { enumName: 'LicenseStatus' })
  status?: LicenseStatus;
}
