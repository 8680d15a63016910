import { IntBetween, OptionalText, TrimmedText } from '../../../common/fields';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { Trim } from '../../../common/transforms';
import { IsDecimal, IsSemanticVersion, OptionalNotNull } from '../../../common/validation';
import { Envelope } from '../../../common/envelope';

/** Bounds of every settings value; the DTOs below and the admin screen's hints use the same numbers. */
export const SETTINGS_BOUNDS = {
  durationDays: { min: 1, max: 365 },
  trialDevices: { min: 1, max: 100 },
  trialsPerUser: { min: 1, max: 100 },
  pricePerDevice: { min: 0, max: 100_000 },
  months: { min: 1, max: 120 },
  purchaseDevices: { min: 1, max: 100 },
  timeoutSeconds: { min: 1, max: 300 },
} as const;

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
const HTTP_URL_OR_EMPTY = /^(|https?:\/\/[^\s/?#]+[^\s]*)$/i;

/** Test (trial) licenses. */
export class TestLicenseSettingsDto {
  /** Whether clients may request a test license. */
  @IsBoolean()
  enabled: boolean;

  /** Lifetime of a test license in days (1 to 365). */
  @IntBetween(SETTINGS_BOUNDS.durationDays.min, SETTINGS_BOUNDS.durationDays.max)
  duration_days: number;

  /** Devices a test license may activate (1 to 100). */
  @IntBetween(SETTINGS_BOUNDS.trialDevices.min, SETTINGS_BOUNDS.trialDevices.max)
  max_devices: number;

  /** Test licenses one client may hold in total (1 to 100). */
  @IntBetween(SETTINGS_BOUNDS.trialsPerUser.min, SETTINGS_BOUNDS.trialsPerUser.max)
  max_per_user: number;

  /** Shown on the Test License tile (up to 500 characters). */
  @TrimmedText(500)
  description: string;

  /** The same in German, shown to German readers (up to 500 characters; empty: the English one; left out: kept). */
  @ApiProperty({ required: false })
  @OptionalNotNull()
  @TrimmedText(500)
  description_de: string;
}

/** The public part of the test-license group. */
export class PublicTestLicenseSettingsDto {
  /** True when test licenses are enabled here and in features.test_license_enabled. */
  enabled: boolean;
  duration_days: number;
  max_devices: number;
  description: string;
  description_de: string;
}

/** Pricing of purchased licenses: total = devices × months × price_per_device. */
export class PricingSettingsDto {
  /** Price per device per month in the currency's main unit, at most two decimals (0 to 100000), e.g. 10 for 10 USD. */
  @IsDecimal(2)
  @Min(SETTINGS_BOUNDS.pricePerDevice.min)
  @Max(SETTINGS_BOUNDS.pricePerDevice.max)
  price_per_device: number;

  /** ISO 4217 code, three capital letters (e.g. USD). */
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code such as USD' })
  currency: string;

  /** Shortest purchase in months (1 to 120, not above max_duration_months). */
  @IntBetween(SETTINGS_BOUNDS.months.min, SETTINGS_BOUNDS.months.max)
  min_duration_months: number;

  /** Longest purchase in months (1 to 120). */
  @IntBetween(SETTINGS_BOUNDS.months.min, SETTINGS_BOUNDS.months.max)
  max_duration_months: number;

  /** Most devices in one purchase (1 to 100). */
  @IntBetween(SETTINGS_BOUNDS.purchaseDevices.min, SETTINGS_BOUNDS.purchaseDevices.max)
  max_devices: number;

  /** Shown on the Purchase License tile (up to 500 characters). */
  @TrimmedText(500)
  description: string;

  /** The same in German, shown to German readers (up to 500 characters; empty: the English one; left out: kept). */
  @ApiProperty({ required: false })
  @OptionalNotNull()
  @TrimmedText(500)
  description_de: string;
}

export class AppInfoSettingsDto {
  /** Product name (1 to 60 characters); product choices are built from it ("{name} Pro", "{name} v{version}"). */
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(60)
  name: string;

  /** Up to 30 characters. */
  @TrimmedText(30)
  version: string;

  /** Up to 1000 characters. */
  @TrimmedText(1000)
  description: string;

  @Trim()
  @IsEmail({}, { message: 'support_email must be an e-mail address' })
  @MaxLength(255)
  support_email: string;

  /** An http(s) URL. */
  @Trim()
  @IsString()
  @Matches(HTTP_URL, { message: 'website must be an http:// or https:// URL' })
  @MaxLength(500)
  website: string;

  /**
   * The oldest release streaming servers may run: one below it is told `update_required` by validate. A semantic
   * version, or empty for none (the default); left out of a PUT: unchanged.
   */
  @ApiProperty({ required: false, default: '' })
  @OptionalNotNull()
  @Trim()
  @ValidateIf((dto: AppInfoSettingsDto) => dto.min_supported_version !== '')
  @IsSemanticVersion({ message: 'min_supported_version must be a semantic version such as 2.1.0, or empty' })
  min_supported_version: string;
}

export class FeaturesSettingsDto {
  /** Off: no test licenses, whatever test_license.enabled says. */
  @IsBoolean()
  test_license_enabled: boolean;

  /** Off: purchases and orders are refused. */
  @IsBoolean()
  purchase_license_enabled: boolean;

  @IsBoolean()
  multiple_devices_supported: boolean;

  @IsBoolean()
  license_transfer_enabled: boolean;

  /**
   * On: every customer download needs a license that covers the release; off (default): published stable builds are
   * open to every verified customer to try. Left out of a PUT: unchanged.
   */
  @ApiProperty({ required: false, default: false })
  @IsOptional()
  @IsBoolean()
  downloads_require_license: boolean;
}

/** The connection to an external license server, as the admin writes it. */
export class LicenseServerSettingsInputDto {
  /** http(s) URL of an external license server; empty: the portal is its own license server. */
  @Trim()
  @IsString()
  @Matches(HTTP_URL_OR_EMPTY, { message: 'url must be an http:// or https:// URL, or empty' })
  @MaxLength(500)
  url: string;

  /** Write-only: never returned. Leave out to keep the stored token; an empty string clears it. */
  @OptionalText(500)
  api_token?: string;

  /** Request timeout towards the license server in seconds (1 to 300). */
  @IntBetween(SETTINGS_BOUNDS.timeoutSeconds.min, SETTINGS_BOUNDS.timeoutSeconds.max)
  timeout_seconds: number;
}

/** The connection to an external license server, as it is shown: the token itself never leaves the server. */
export class LicenseServerSettingsDto {
  url: string;
  /** Whether an API token is stored. */
  api_token_set: boolean;
  timeout_seconds: number;
}

/** A settings group of the document: required, and checked as `type` (applied in the order stacked decorators were). */
const Group = (type: () => new () => object) => applyDecorators(IsDefined(), Type(type), ValidateNested());

/** The whole settings document, as the admin settings screen writes it with PUT. */
export class UpdateSettingsDto {
  @Group(() => TestLicenseSettingsDto)
  test_license: TestLicenseSettingsDto;

  @Group(() => PricingSettingsDto)
  pricing: PricingSettingsDto;

  @Group(() => AppInfoSettingsDto)
  app_info: AppInfoSettingsDto;

  @Group(() => FeaturesSettingsDto)
  features: FeaturesSettingsDto;

  @Group(() => LicenseServerSettingsInputDto)
  license_server: LicenseServerSettingsInputDto;
}

export const PATCHABLE_SETTING_KEYS = [
  'test_license.enabled',
  'test_license.duration_days',
  'test_license.max_devices',
  'test_license.max_per_user',
  'test_license.description',
  'test_license.description_de',
  'pricing.price_per_device',
  'pricing.currency',
  'pricing.min_duration_months',
  'pricing.max_duration_months',
  'pricing.max_devices',
  'pricing.description',
  'pricing.description_de',
  'app_info.name',
  'app_info.version',
  'app_info.description',
  'app_info.support_email',
  'app_info.website',
  'app_info.min_supported_version',
  'features.test_license_enabled',
  'features.purchase_license_enabled',
  'features.multiple_devices_supported',
  'features.license_transfer_enabled',
  'features.downloads_require_license',
  'license_server.url',
  'license_server.api_token',
  'license_server.timeout_seconds',
] as const;
export type PatchableSettingKey = (typeof PATCHABLE_SETTING_KEYS)[number];

/** One value, named `group.field`; it is checked against the same bounds as in PUT. */
export class PatchSettingDto {
  @ApiProperty({ enum: PATCHABLE_SETTING_KEYS, enumName: 'SettingKey' })
  @IsIn(PATCHABLE_SETTING_KEYS, { message: 'key must be one of the settings, e.g. pricing.price_per_device' })
  key: PatchableSettingKey;

  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] })
  @IsDefined({ message: 'value is required' })
  value: string | number | boolean;
}

export class PublicPricingSettingsDto {
  /** Per device per month, in the currency's main unit (e.g. 10). */
  price_per_device: number;
  currency: string;
  max_duration_months: number;
  min_duration_months: number;
  max_devices: number;
  description: string;
  description_de: string;
}

/** What anyone may read: the client dashboard's Get License card and modals use it. */
export class PublicSettingsDto {
  test_license: PublicTestLicenseSettingsDto;
  pricing: PublicPricingSettingsDto;
  app_info: AppInfoSettingsDto;
  features: FeaturesSettingsDto;
}

export class AdminSettingsDto {
  test_license: TestLicenseSettingsDto;
  pricing: PricingSettingsDto;
  app_info: AppInfoSettingsDto;
  features: FeaturesSettingsDto;
  license_server: LicenseServerSettingsDto;
}

export class PublicSettingsResponseDto extends Envelope(PublicSettingsDto) {}

export class AdminSettingsResponseDto extends Envelope(AdminSettingsDto, { message: 'optional' }) {}
