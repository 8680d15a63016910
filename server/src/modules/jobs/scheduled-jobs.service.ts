import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { PreparedSql } from '../../database/prepared-sql';
import { JOB_FAILED, notify } from '../../common/events';
import { ScheduledJobEntity } from './scheduled-job.entity';

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
  private readonly sql: PreparedSql;

  constructor(
    dataSource: DataSource,
    @InjectRepository(ScheduledJobEntity) private readonly jobs: Repository<ScheduledJobEntity>,
    private readonly events: EventEmitter2,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** Runs `work` unless another instance already runs this period's run; never throws (a failure is recorded). */
  async run(name: string, periodSeconds: number, work: () => Promise<unknown>): Promise<JobOutcome> {
    const started = new Date();
    if (!(await this.takeLease(name, started, periodSeconds))) return 'skipped';
    try {
      await work();
      await this.finish(name, started, null);
      return 'ran';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`Job ${name} failed: ${message}`);
      notify(this.events, JOB_FAILED, { job: name, error: message });
      await this.finish(name, started, message).catch(() => undefined);
      return 'failed';
    }
  }

  /** Every job that has run, with its last outcome. */
  list(): Promise<ScheduledJobEntity[]> {
    return this.jobs.find({ order: { name: 'ASC' } });
  }

  private async takeLease(name: string, now: Date, periodSeconds: number): Promise<boolean> {
    await this.sql.insertMany('scheduled_jobs', ['name', 'runs', 'failures'], [[name, 0, 0]], { ignoreDuplicates: true });
    const until = new Date(now.getTime() + Math.max(1, periodSeconds * 0.9) * 1000);
    const taken = await this.sql.run(
      'UPDATE scheduled_jobs SET lease_owner = ?, lease_until = ?, last_started_at = ? WHERE name = ? AND (lease_until IS NULL OR lease_until <= ?)',
      [this.instanceId, until, now, name, now],
    );
    return taken === 1;
  }

  private async finish(name: string, started: Date, error: string | null): Promise<void> {
    const finished = new Date();
    await this.sql.run(
      'UPDATE scheduled_jobs SET last_finished_at = ?, last_duration_ms = ?, last_outcome = ?, last_error = ?, runs = runs + 1, ' +
        'failures = failures + ? WHERE name = ?',
      [finished, finished.getTime() - started.getTime(), error ? 'failed' : 'ok', error?.slice(0, 500) ?? null, error ? 1 : 0, name],
    );
  }
}
