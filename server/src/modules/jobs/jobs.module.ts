import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LogsModule } from '../logs/logs.module';
import { ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobsService } from './scheduled-jobs.service';

/** Single-run scheduled jobs and their last outcomes; global, since every module with a job uses it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ScheduledJobEntity]), LogsModule],
  providers: [ScheduledJobsService],
  exports: [ScheduledJobsService],
})
export class JobsModule {}
