import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { LicensesModule } from '../licenses/licenses.module';
import { LogsModule } from '../logs/logs.module';
import { LicenseServerController } from './license-server.controller';
import { LicenseServerService } from './license-server.service';
import { TestScriptArchive } from './test-script-archive';

@Module({
  imports: [LicensesModule, DevicesModule, LogsModule],
  controllers: [LicenseServerController],
  providers: [LicenseServerService, TestScriptArchive],
})
export class LicenseServerModule {}
