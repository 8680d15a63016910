import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { AdminDevicesService } from './admin-devices.service';
import {
  AdminDeactivateDeviceDto,
  AdminDeviceListResponseDto,
  AdminDeviceResponseDto,
  DeviceStatsResponseDto,
  LicenseDevicesResponseDto,
  ListAdminDevicesQueryDto,
  toAdminDeviceDto,
} from './dto/device.dto';
import { AdminOnly } from '../../common/admin-only.decorator';

@ApiTags('devices')
@AdminOnly()
@Controller('admin/devices')
export class AdminDevicesController {
  constructor(private readonly devices: AdminDevicesService) {}

  /** Every device: search over server_uid, name, host, license key and owner e-mail; filter by status; 25 per page. */
  @Get()
  async listAdminDevices(@Query() query: ListAdminDevicesQueryDto): Promise<AdminDeviceListResponseDto> {
    const { rows, total, page, limit } = await this.devices.list(query);
    return { success: true, data: rows.map(toAdminDeviceDto), meta: pageMeta(total, page, limit) };
  }

  /** Devices by status, seats held, devices that reported in the last 24 hours, and versions in use. */
  @Get('stats')
  async getDeviceStats(): Promise<DeviceStatsResponseDto> {
    return { success: true, data: await this.devices.stats() };
  }

  /** The devices of one license, by its key. */
  @Get('license/:key')
  async listLicenseDevices(@Param('key') key: string): Promise<LicenseDevicesResponseDto> {
    const { license, devices } = await this.devices.forLicenseKey(key);
    return {
      success: true,
      data: {
        license_id: license.id,
        license_key: license.license_key,
        max_activations: license.max_activations,
        current_activations: license.current_activations,
        devices: devices.map(toAdminDeviceDto),
      },
    };
  }

  /** Deactivates the device {license_key, server_uid} and frees its seat. */
  @Post('deactivate')
  @Audit('device.deactivate', 'Deactivate device', 'device')
  @HttpCode(200)
  async deactivateAdminDevice(@Body() dto: AdminDeactivateDeviceDto): Promise<AdminDeviceResponseDto> {
    return {
      success: true,
      message: 'Device deactivated',
      data: toAdminDeviceDto(await this.devices.deactivate(dto.license_key, dto.server_uid)),
    };
  }
}
