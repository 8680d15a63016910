import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { RateLimitsModule } from './common/rate-limit';
import { DatabaseModule } from './database/database.module';
import { AuthModule } from './modules/auth/auth.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { DevicesModule } from './modules/devices/devices.module';
import { DistributionFilesModule } from './modules/distribution-files/distribution-files.module';
import { DownloadsModule } from './modules/downloads/downloads.module';
import { HealthModule } from './modules/health/health.module';
import { JobsModule } from './modules/jobs/jobs.module';
import { LicenseServerModule } from './modules/license-server/license-server.module';
import { LicensesModule } from './modules/licenses/licenses.module';
import { LogsModule } from './modules/logs/logs.module';
import { MailModule } from './modules/mail/mail.module';
import { OrdersModule } from './modules/orders/orders.module';
import { ReleaseManifestsModule } from './modules/release-manifests/release-manifests.module';
import { SettingsModule } from './modules/settings/settings.module';
import { StorageModule } from './modules/storage/storage.module';
import { UpdatesModule } from './modules/updates/updates.module';
import { UsersModule } from './modules/users/users.module';
import { VersionsModule } from './modules/versions/versions.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        RateLimitsModule,
        DatabaseModule.forRoot(config.database),
        ScheduleModule.forRoot(),
        // Modules tell each other of changes through events (common/events.ts), not by registering callbacks.
        EventEmitterModule.forRoot(),
        JobsModule,
        // First, so its routes are matched first: the activation API is the portal's busiest path.
        LicenseServerModule,
        MailModule,
        HealthModule,
        UsersModule,
        AuthModule,
        SettingsModule,
        LicensesModule,
        OrdersModule,
        DevicesModule,
        LogsModule,
        StorageModule,
        VersionsModule,
        DistributionFilesModule,
        ReleaseManifestsModule,
        DownloadsModule,
        UpdatesModule,
        DashboardModule,
      ],
    };
  }
}
