import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig, LogType } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { AccessLogService } from '../access-log/access-log.service';
import { AuditLogService } from './audit-log.service';
import { DownloadLogsService } from './download-logs.service';
import { RemoteLogsService } from './remote-logs.service';

const DAY_MS = 24 * 3600 * 1000;

/** Deletes log rows older than each log's retention (LOG_RETENTION_DAYS*), hourly, in batches. */
@Injectable()
export class LogRetentionService {
  private readonly logger = new Logger('LogRetention');

  constructor(
    private readonly jobs: ScheduledJobsService,
    private readonly audit: AuditLogService,
    private readonly access: AccessLogService,
    private readonly remote: RemoteLogsService,
    private readonly downloads: DownloadLogsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'log-retention' })
  async scheduled(): Promise<void> {
    await this.jobs.run('log-retention', 3600, () => this.prune());
  }

  /** Prunes every log; returns the rows removed per log. */
  async prune(now = new Date()): Promise<Record<LogType, number>> {
    const before = (type: LogType) => new Date(now.getTime() - this.config.logs.retentionDays[type] * DAY_MS);
    const removed = {
      audit: await this.audit.prune(before('audit')),
      access: await this.access.prune(before('access')),
      remote: await this.remote.prune(before('remote')),
      downloads: await this.downloads.prune(before('downloads')),
    };
    const total = Object.values(removed).reduce((sum, n) => sum + n, 0);
    if (total) this.logger.log(`Pruned ${total} log rows past retention: ${JSON.stringify(removed)}`);
    return removed;
  }
}
