import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Trim } from '../../../common/transforms';
import { MAX_LENGTH } from '../../../database/column-lengths';

export const LICENSE_TYPES = ['trial', 'paid'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

/**
 * A client's request for a license (Request Test License and Purchase License modals). The license is always
 * for the signed-in user. For a trial, duration and device count come from the test-license settings; for a
 * purchase the price is computed on the server. The fields marked "ignored" are accepted because the spec's
 * client sends them, and have no effect.
 */
export class CreateLicenseDto {
  /** "{app_info.name} v{version}" for an existing version. */
  @Trim()
  @IsString({ message: 'Please select a product' })
  @IsNotEmpty({ message: 'Please select a product' })
  @MaxLength(MAX_LENGTH.productName)
  product_name: string;

  @ApiProperty({ enum: LICENSE_TYPES, enumName: 'LicenseType' })
  @IsIn(LICENSE_TYPES, { message: 'license_type must be trial or paid' })
  license_type: LicenseType;

  /** Paid: number of devices (1 to 100, within pricing.max_devices; default 1). Trial: ignored. */
  @ValidateIf((dto: CreateLicenseDto) => dto.license_type === 'paid' && dto.max_activations !== undefined)
  @IsInt({ message: 'Number of devices must be a whole number' })
  @Min(1, { message: 'Number of devices must be at least 1' })
  @Max(100, { message: 'Number of devices must be at most 100' })
  max_activations?: number;

  /** Paid: months (pricing.min_duration_months to max_duration_months; default 1). Trial: ignored. */
  @ValidateIf((dto: CreateLicenseDto) => dto.license_type === 'paid' && dto.duration_months !== undefined)
  @IsInt({ message: 'Duration must be a whole number of months' })
  @Min(1, { message: 'Duration must be at least 1 month' })
  @Max(120, { message: 'Duration must be at most 120 months' })
  duration_months?: number;

  /** Ignored: a trial lasts test_license.duration_days. */
  @ApiProperty({ required: false, type: Number, description: 'Ignored: a trial lasts test_license.duration_days.' })
  @IsOptional()
  @Allow()
  duration_days?: unknown;

  /** Ignored: the price is devices × months × pricing.price_per_device, computed on the server. */
  @ApiProperty({ required: false, type: Number, description: 'Ignored: the price is computed on the server.' })
  @IsOptional()
  @Allow()
  price?: unknown;

  /** Ignored: the license is always for the signed-in user. */
  @ApiProperty({ required: false, type: String, description: 'Ignored: the license is always for the signed-in user.' })
  @IsOptional()
  @Allow()
  user_email?: unknown;
}
