import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLogModule } from '../access-log/access-log.module';
import { AuditLogEntity } from './audit-log.entity';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';
import { AuditInterceptor } from './audit.interceptor';
import { DailyStatEntity } from './daily-stat.entity';
import { DailyStatsRepository } from './daily-stats.repository';
import { DailyStatsService } from './daily-stats.service';
import { DownloadLogEntity } from './download-log.entity';
import { DownloadLogsRepository } from './download-logs.repository';
import { DownloadLogsService } from './download-logs.service';
import { LogRetentionService } from './log-retention.service';
import { LogsController } from './logs.controller';
import { LogsService } from './logs.service';
import { RemoteLogEntity } from './remote-log.entity';
import { RemoteLogsRepository } from './remote-logs.repository';
import { RemoteLogsService } from './remote-logs.service';

/**
 * Every log the portal keeps: the audit trail (local), the activation API's calls (remote) and the download log,
 * and the access log through its own module; System Logs reads them here, and retention prunes them.
 */
@Module({
  imports: [AccessLogModule, TypeOrmModule.forFeature([RemoteLogEntity, DownloadLogEntity, AuditLogEntity, DailyStatEntity])],
  controllers: [LogsController],
  providers: [
    AuditLogRepository,
    RemoteLogsRepository,
    DownloadLogsRepository,
    DailyStatsRepository,
    RemoteLogsService,
    DownloadLogsService,
    AuditLogService,
    DailyStatsService,
    LogsService,
    LogRetentionService,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  // The access log's module too: the fast paths of other modules record their calls' access rows.
  exports: [RemoteLogsService, DownloadLogsService, AuditLogService, DailyStatsService, AccessLogModule],
})
export class LogsModule {}
