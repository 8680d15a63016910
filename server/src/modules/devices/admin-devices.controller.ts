import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply } from '../../common/response';
import { AdminDevicesService } from './admin-devices.service';
import {
  AdminDeactivateDeviceDto,
  AdminDeviceDto,
  AdminDeviceListResponseDto,
  AdminDeviceResponseDto,
  DeviceStatsDto,
  DeviceStatsResponseDto,
  LicenseDevicesDto,
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
  @ApiGetResponse(AdminDeviceListResponseDto)
  async listAdminDevices(@Query() query: ListAdminDevicesQueryDto): Promise<Reply<AdminDeviceDto[]>> {
    const { rows, total, page, limit } = await this.devices.list(query);
    return pageOf(rows.map(toAdminDeviceDto), pageMeta(total, page, limit));
  }

  /** Devices by status, seats held, devices that reported in the last 24 hours, and versions in use. */
  @ApiGetResponse(DeviceStatsResponseDto, 'stats')
  getDeviceStats(): Promise<DeviceStatsDto> {
    return this.devices.stats();
  }

  /** The devices of one license, by its key. */
  @ApiGetResponse(LicenseDevicesResponseDto, 'license/:key')
  async listLicenseDevices(@Param('key') key: string): Promise<LicenseDevicesDto> {
    const { license, devices } = await this.devices.forLicenseKey(key);
    return {
      license_id: license.id,
      license_key: license.license_key,
      max_activations: license.max_activations,
      current_activations: license.current_activations,
      devices: devices.map(toAdminDeviceDto),
    };
  }

  /** Deactivates the device {license_key, server_uid} and frees its seat. */
  @Post('deactivate')
  @Audit('device.deactivate', 'Deactivate device', 'device')
  @ApiEnvelopeResponse(AdminDeviceResponseDto, { message: 'Device deactivated' })
  async deactivateAdminDevice(@Body() dto: AdminDeactivateDeviceDto): Promise<AdminDeviceDto> {
    return toAdminDeviceDto(await this.devices.deactivate(dto.license_key, dto.server_uid));
  }
}
