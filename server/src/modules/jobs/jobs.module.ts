import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobsRepository } from './scheduled-jobs.repository';
import { ScheduledJobsService } from './scheduled-jobs.service';

/** Single-run scheduled jobs and their last outcomes; global, since every module with a job uses it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ScheduledJobEntity])],
  providers: [ScheduledJobsService, ScheduledJobsRepository],
  exports: [ScheduledJobsService],
})
export class JobsModule {}
