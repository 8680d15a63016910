import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { randomUUID } from 'node:crypto';
import { JOB_FAILED, notify } from '../../common/events';
import { ScheduledJobEntity } from './scheduled-job.entity';
import { ScheduledJobsRepository } from './scheduled-jobs.repository';

export type JobOutcome = 'ran' | 'skipped' | 'failed';

/**
 * Runs scheduled jobs once per schedule across every instance sharing the database, and records how each run
 * went. A run first takes the job's lease with a conditional UPDATE; the lease lasts most of the period and is
 * not given back, so an instance whose timer fires a moment later finds this period's run taken.
 */
@Injectable()
export class ScheduledJobsService {
  private readonly logger = new Logger('Jobs');
  /** This process, as lease_owner. */
  readonly instanceId = randomUUID();

  constructor(
    private readonly jobs: ScheduledJobsRepository,
    private readonly events: EventEmitter2,
  ) {}

  /** Runs `work` unless another instance already runs this period's run; never throws (a failure is recorded). */
  async run(name: string, periodSeconds: number, work: () => Promise<unknown>): Promise<JobOutcome> {
    const started = new Date();
    const until = new Date(started.getTime() + Math.max(1, periodSeconds * 0.9) * 1000);
    if (!(await this.jobs.takeLease(name, this.instanceId, started, until))) return 'skipped';
    try {
      await work();
      await this.jobs.finish(name, started, new Date(), null);
      return 'ran';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`Job ${name} failed: ${message}`);
      notify(this.events, JOB_FAILED, { job: name, error: message });
      await this.jobs.finish(name, started, new Date(), message).catch(() => undefined);
      return 'failed';
    }
  }

  /** Every job that has run, with its last outcome. */
  list(): Promise<ScheduledJobEntity[]> {
    return this.jobs.list();
  }
}
