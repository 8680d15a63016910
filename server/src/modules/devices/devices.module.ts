import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LicensesModule } from '../licenses/licenses.module';
import { AdminDevicesController } from './admin-devices.controller';
import { AdminDevicesService } from './admin-devices.service';
import { CustomerDevicesService } from './customer-devices.service';
import { DeviceSeatsService } from './device-seats.service';
import { DeviceSyncService } from './device-sync.service';
import { DeviceEntity } from './device.entity';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';

@Module({
  imports: [TypeOrmModule.forFeature([DeviceEntity]), LicensesModule],
  controllers: [DevicesController, AdminDevicesController],
  providers: [DevicesRepository, DeviceSeatsService, CustomerDevicesService, AdminDevicesService, DeviceSyncService],
  exports: [DeviceSeatsService, AdminDevicesService, DeviceSyncService],
})
export class DevicesModule {}
