import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { LicensesModule } from '../licenses/licenses.module';
import { LogsModule } from '../logs/logs.module';
import { ReleaseManifestsModule } from '../release-manifests/release-manifests.module';
import { UsersModule } from '../users/users.module';
import { DownloadFastPath } from './download-fast-path';
import { DownloadLinksService } from './download-links.service';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

@Module({
  imports: [AuthModule, DistributionFilesModule, LicensesModule, LogsModule, ReleaseManifestsModule, UsersModule],
  controllers: [DownloadsController],
  providers: [DownloadsService, DownloadLinksService, DownloadFastPath],
  exports: [DownloadsService, DownloadLinksService],
})
/** DownloadFastPath is mounted by createApp, right after the access log (see there). */
export class DownloadsModule {}
