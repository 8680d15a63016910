import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DownloadLogEntity } from './download-log.entity';
import { DownloadLogsService } from './download-logs.service';
import { RemoteLogEntity } from './remote-log.entity';
import { RemoteLogsService } from './remote-logs.service';

/** Remote logs (calls of the activation API) and download logs; the System Logs screen reads them here. */
@Module({
  imports: [TypeOrmModule.forFeature([RemoteLogEntity, DownloadLogEntity])],
  providers: [RemoteLogsService, DownloadLogsService],
  exports: [RemoteLogsService, DownloadLogsService],
})
export class LogsModule {}
