import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLogEntity } from './access-log.entity';
import { AccessLogRepository } from './access-log.repository';
import { AccessLogService } from './access-log.service';

/**
 * The access log: one row per API request, written behind in batches. The logs module lists, exports, prunes and
 * clears it through AccessLogService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AccessLogEntity])],
  providers: [AccessLogRepository, AccessLogService],
  exports: [AccessLogService],
})
export class AccessLogModule {}
