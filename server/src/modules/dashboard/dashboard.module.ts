import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { LicenseServerModule } from '../license-server/license-server.module';
import { LicensesModule } from '../licenses/licenses.module';
import { LogsModule } from '../logs/logs.module';
import { OrdersModule } from '../orders/orders.module';
import { UsersModule } from '../users/users.module';
import { VersionsModule } from '../versions/versions.module';
import { DashboardController } from './dashboard.controller';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';
import { SystemHealthService } from './system-health.service';

/** The admin Dashboard: statistics, recent activity, system health and charts; it owns no table. */
@Module({
  imports: [
    UsersModule,
    LicensesModule,
    DistributionFilesModule,
    OrdersModule,
    DevicesModule,
    LogsModule,
    VersionsModule,
    LicenseServerModule,
  ],
  controllers: [DashboardController],
  providers: [DashboardService, SystemHealthService, DashboardRepository],
})
export class DashboardModule {}
