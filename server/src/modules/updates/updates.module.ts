import { Module } from '@nestjs/common';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { DownloadsModule } from '../downloads/downloads.module';
import { LicenseServerModule } from '../license-server/license-server.module';
import { LicensesModule } from '../licenses/licenses.module';
import { ReleaseManifestsModule } from '../release-manifests/release-manifests.module';
import { LicenseKeyGuard } from './license-key.guard';
import { UpdatesController } from './updates.controller';
import { UpdatesService } from './updates.service';

/** The update API for streaming servers (GET /api/releases/upgrade, /api/releases/latest/{os}/{arch}). */
@Module({
  imports: [DistributionFilesModule, DownloadsModule, LicenseServerModule, LicensesModule, ReleaseManifestsModule],
  controllers: [UpdatesController],
  providers: [UpdatesService, LicenseKeyGuard],
})
export class UpdatesModule {}
