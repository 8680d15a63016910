import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLogSegmentEntity, AccessLogTermEntity } from './access-log.entity';
import { AccessLogService } from './access-log.service';
import { AuditLogEntity } from './audit-log.entity';
import { AuditLogService } from './audit-log.service';
import { AuditInterceptor } from './audit.interceptor';
import { DailyStatEntity } from './daily-stat.entity';
import { DailyStatsService } from './daily-stats.service';
import { DownloadLogEntity } from './download-log.entity';
import { DownloadLogsService } from './download-logs.service';
import { LogRetentionService } from './log-retention.service';
import { LogsController } from './logs.controller';
import { LogsService } from './logs.service';
import { RemoteLogEntity } from './remote-log.entity';
import { RemoteLogsService } from './remote-logs.service';

/**
 * Every log the portal keeps: the audit trail (local), the activation API's calls (remote), the access log and
 * the download log; System Logs reads them here, and retention prunes them.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      RemoteLogEntity,
      DownloadLogEntity,
      AuditLogEntity,
      AccessLogSegmentEntity,
      AccessLogTermEntity,
      DailyStatEntity,
    ]),
  ],
  controllers: [LogsController],
  providers: [
    RemoteLogsService,
    DownloadLogsService,
    AuditLogService,
    AccessLogService,
    DailyStatsService,
    LogsService,
    LogRetentionService,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [RemoteLogsService, DownloadLogsService, AuditLogService, AccessLogService, DailyStatsService],
})
export class LogsModule {}
