import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { LicensesModule } from '../licenses/licenses.module';
import { LogsModule } from '../logs/logs.module';
import { SettingsModule } from '../settings/settings.module';
import { VersionsModule } from '../versions/versions.module';
import { ActivationThrottle } from './activation-throttle';
import { AdminSyncController } from './admin-sync.controller';
import { LicenseServerSyncService } from './license-server-sync.service';
import { LicenseServerController } from './license-server.controller';
import { LicenseServerService } from './license-server.service';
import { SyncApiController } from './sync-api.controller';
import { SyncTokenGuard } from './sync-token.guard';
import { TestScriptArchive } from './test-script-archive';

@Module({
  imports: [LicensesModule, DevicesModule, LogsModule, SettingsModule, VersionsModule],
  controllers: [LicenseServerController, SyncApiController, AdminSyncController],
  providers: [LicenseServerService, ActivationThrottle, TestScriptArchive, LicenseServerSyncService, SyncTokenGuard],
})
export class LicenseServerModule {}
