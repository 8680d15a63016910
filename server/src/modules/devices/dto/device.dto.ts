import type { UpdateAdvice } from '../../licenses/release-coverage.service';
import { OptionalOneOf } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { Trim } from '../../../common/transforms';
import { DEVICE_STATUSES, DeviceEntity, DeviceStatus } from '../device.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { ARCHITECTURES, type Architecture, OS_TYPES, type OsType } from '../../versions/versions.constants';

/** A device as its owner sees it in My Devices. */
export class DeviceDto {
  id: number;
  /** The name its server sends; the dashboard shows custom_name, else this, else the hostname, else 'Unknown Device'. */
  device_name: string | null;
  /** The name its owner gave it in My Devices (null: none). */
  custom_name: string | null;
  license_id: number;
  license_key: string;
  product_name: string;
  @ApiProperty({ enum: DEVICE_STATUSES, enumName: 'DeviceStatus' })
  status: DeviceStatus;
  /** True while the device holds a seat and reports in ('Currently active'). */
  is_active: boolean;
  activated_at: Date;
  last_activity_at: Date | null;
  deactivated_at: Date | null;
  server_uid: string;
  hostname: string | null;
  product: string | null;
  version: string | null;
  /** The operating system its server reports (null: it never said). */
  @ApiProperty({ enum: OS_TYPES, nullable: true })
  os: OsType | null;
  /** Its architecture (null: it never said). */
  @ApiProperty({ enum: ARCHITECTURES, nullable: true })
  arch: Architecture | null;
  /** My Devices: the newest release its license covers above the one it last reported (null: none, or it never said). */
  update_available?: string | null;
  /** My Devices: it last reported a release below the product's minimum supported version. */
  update_required?: boolean;
}

export class AdminDeviceDto extends DeviceDto {
  user_email: string;
  last_ip: string | null;
  created_at: Date;
}

export class DeviceListResponseDto extends PageOf(DeviceDto) {}

export class AdminDeviceListResponseDto extends PageOf(AdminDeviceDto) {}

export class DeviceResponseDto extends Envelope(DeviceDto, { message: 'required' }) {}

export class AdminDeviceResponseDto extends Envelope(AdminDeviceDto, { message: 'required' }) {}

export class CountByNameDto {
  name: string;
  count: number;
}

export class DeviceStatsDto {
  total: number;
  active: number;
  inactive: number;
  failed: number;
  /** Devices that gave their seat back. */
  deactivated: number;
  /** Devices holding a seat (not deactivated). */
  holding_seats: number;
  /** Devices that reported within the last 24 hours. */
  reported_last_24h: number;
  /** Seat-holding devices per reported software version, most first (top 20). */
  by_version: CountByNameDto[];
}

export class DeviceStatsResponseDto extends Envelope(DeviceStatsDto) {}

export class LicenseDevicesDto {
  license_id: number;
  license_key: string;
  max_activations: number;
  current_activations: number;
  devices: AdminDeviceDto[];
}

export class LicenseDevicesResponseDto extends Envelope(LicenseDevicesDto) {}

export const DEVICE_SORT_KEYS = ['activated_at', 'last_activity_at', 'server_uid', 'device_name'] as const;
export type DeviceSortKey = (typeof DEVICE_SORT_KEYS)[number];

/** `search` looks in server_uid, device_name, hostname, license key and owner e-mail; default activated_at desc, 25 per page. */
export class ListAdminDevicesQueryDto extends ListQueryDto {
  @OptionalOneOf(DEVICE_STATUSES, { enumName: 'DeviceStatus' })
  status?: DeviceStatus;

  @OptionalOneOf(DEVICE_SORT_KEYS, { default: 'activated_at' })
  sort?: DeviceSortKey;
}

/** Device deactivation payload of the spec: the license and the server that holds a seat on it. */
export class AdminDeactivateDeviceDto {
  @Trim()
  @IsString({ message: 'license_key is required' })
  @IsNotEmpty({ message: 'license_key is required' })
  @MaxLength(MAX_LENGTH.licenseKey)
  license_key: string;

  @Trim()
  @IsString({ message: 'server_uid is required' })
  @IsNotEmpty({ message: 'server_uid is required' })
  @MaxLength(MAX_LENGTH.serverUid)
  server_uid: string;
}

export function toDeviceDto(
  device: DeviceEntity & { license: { license_key: string; product_name: string } },
  advice?: Pick<UpdateAdvice, 'updateAvailable' | 'updateRequired'>,
): DeviceDto {
  const dto: DeviceDto = {
    id: device.id,
    device_name: device.device_name,
    custom_name: device.custom_name,
    license_id: device.license_id,
    license_key: device.license.license_key,
    product_name: device.license.product_name,
    status: device.status,
    is_active: device.status === 'active' && device.deactivated_at === null,
    activated_at: device.activated_at,
    last_activity_at: device.last_activity_at,
    deactivated_at: device.deactivated_at,
    server_uid: device.server_uid,
    hostname: device.hostname,
    product: device.product,
    version: device.version,
    os: device.os,
    arch: device.arch,
  };
  return advice ? Object.assign(dto, { update_available: advice.updateAvailable, update_required: advice.updateRequired }) : dto;
}

/** Admin lists build on the customer's view without the update advice. */
export function toAdminDeviceDto(
  device: DeviceEntity & { license: { license_key: string; product_name: string; user_email: string } },
): AdminDeviceDto {
  return Object.assign(toDeviceDto(device), {
    user_email: device.license.user_email,
    last_ip: device.last_ip,
    created_at: device.created_at,
  });
}

/** A device's name in My Devices; empty: named by its server, or after its host, again. */
export class RenameDeviceDto {
  @ApiProperty({ maxLength: MAX_LENGTH.deviceName })
  @Trim()
  @IsString({ message: 'name must be a string' })
  @MaxLength(MAX_LENGTH.deviceName)
  name: string;
}
