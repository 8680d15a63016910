import { Module } from '@nestjs/common';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { LogsModule } from '../logs/logs.module';
import { UsersModule } from '../users/users.module';
import { DownloadLinksService } from './download-links.service';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

@Module({
  imports: [DistributionFilesModule, LogsModule, UsersModule],
  controllers: [DownloadsController],
  providers: [DownloadsService, DownloadLinksService],
  exports: [DownloadsService, DownloadLinksService],
})
export class DownloadsModule {}
