import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DistributionFilesModule } from '../distribution-files/distribution-files.module';
import { LogsModule } from '../logs/logs.module';
import { UsersModule } from '../users/users.module';
import { DownloadFastPath } from './download-fast-path';
import { DownloadLinksService } from './download-links.service';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

@Module({
  imports: [AuthModule, DistributionFilesModule, LogsModule, UsersModule],
  controllers: [DownloadsController],
  providers: [DownloadsService, DownloadLinksService, DownloadFastPath],
  exports: [DownloadsService, DownloadLinksService],
})
export class DownloadsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // GET only (Express routes HEAD to it too): a route of every method would list methods no client may use.
    consumer.apply(DownloadFastPath).forRoutes({ path: 'download/:id', method: RequestMethod.GET });
  }
}
