import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ListQueryDto } from '../../common/list-query.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply } from '../../common/response';
import { CustomerDevicesService } from './customer-devices.service';
import { DeviceDto, DeviceListResponseDto, DeviceResponseDto, RenameDeviceDto, toDeviceDto } from './dto/device.dto';
import { IdParam } from '../../common/id-param';
import { ReleaseCoverageService } from '../licenses/release-coverage.service';

/** My Devices: the servers that activated the caller's licenses. */
@ApiTags('devices')
@Controller('devices')
export class DevicesController {
  constructor(
    private readonly devices: CustomerDevicesService,
    private readonly coverage: ReleaseCoverageService,
  ) {}

  /**
   * Devices on the caller's licenses, newest activation first (default 50 per page); deactivated ones included, as
   * inactive. Each says whether an update is available or required for the release it last reported.
   */
  @ApiGetResponse(DeviceListResponseDto)
  async listMyDevices(@CurrentUser() user: AuthUser, @Query() query: ListQueryDto): Promise<Reply<DeviceDto[]>> {
    const { rows, total, page, limit } = await this.devices.listForUser(user, query.page ?? 1, query.limit ?? 50);
    const advice = await this.coverage.adviseDevices(user.id, rows);
    return pageOf(
      rows.map((device, index) => toDeviceDto(device, advice[index])),
      pageMeta(total, page, limit),
    );
  }

  /** Names one of the caller's devices (an empty name: named by its server, or after its host, again); its server never renames it. */
  @Put(':id')
  @Audit('device.rename_own', 'Rename own device', 'device')
  @ApiEnvelopeResponse(DeviceResponseDto, { message: 'Device renamed' })
  async renameMyDevice(@IdParam() id: number, @Body() body: RenameDeviceDto, @CurrentUser() user: AuthUser): Promise<DeviceDto> {
    return toDeviceDto(await this.devices.renameOwn(id, user, body.name));
  }

  /** Deactivates one of the caller's devices and frees its seat, so the license can move to another server. */
  @Post(':id/deactivate')
  @Audit('device.deactivate_own', 'Deactivate own device', 'device')
  @ApiEnvelopeResponse(DeviceResponseDto, { message: 'Device deactivated' })
  async deactivateMyDevice(@IdParam() id: number, @CurrentUser() user: AuthUser): Promise<DeviceDto> {
    return toDeviceDto(await this.devices.deactivateOwn(id, user));
  }
}
