import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLogSegmentEntity, AccessLogTermEntity } from './access-log.entity';
import { AccessLogRepository } from './access-log.repository';
import { AccessLogService } from './access-log.service';
import { AccessLogTermsRepository } from './access-log-terms.repository';

/**
 * The access log: one row per API request, stored in segments with a term index of their own (see
 * access-log-store.ts). The logs module lists, exports, prunes and clears it through AccessLogService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AccessLogSegmentEntity, AccessLogTermEntity])],
  providers: [AccessLogRepository, AccessLogTermsRepository, AccessLogService],
  exports: [AccessLogService],
})
export class AccessLogModule {}
