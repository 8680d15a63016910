import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PreparedSql } from '../../database/prepared-sql';
import { ScheduledJobEntity } from './scheduled-job.entity';

/** The scheduled_jobs table: one row per job, its lease and its last run. */
@Injectable()
export class ScheduledJobsRepository {
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(ScheduledJobEntity) private readonly jobs: Repository<ScheduledJobEntity>) {
    this.sql = PreparedSql.for(jobs.manager.connection);
  }

  list(): Promise<ScheduledJobEntity[]> {
    return this.jobs.find({ order: { name: 'ASC' } });
  }

  /**
   * Takes the job's lease for `owner` until `until`, unless another owner holds one that has not run out: a
   * conditional UPDATE, so of instances racing for it one wins. Returns whether this one did.
   */
  async takeLease(name: string, owner: string, now: Date, until: Date): Promise<boolean> {
    await this.sql.insertMany('scheduled_jobs', ['name', 'runs', 'failures'], [[name, 0, 0]], { ignoreDuplicates: true });
    const taken = await this.sql.run(
      'UPDATE scheduled_jobs SET lease_owner = ?, lease_until = ?, last_started_at = ? WHERE name = ? AND (lease_until IS NULL OR lease_until <= ?)',
      [owner, until, now, name, now],
    );
    return taken === 1;
  }

  /** Records how a run ended; the lease stays, so the period's run is not taken again. */
  async finish(name: string, started: Date, finished: Date, error: string | null): Promise<void> {
    await this.sql.run(
      'UPDATE scheduled_jobs SET last_finished_at = ?, last_duration_ms = ?, last_outcome = ?, last_error = ?, runs = runs + 1, ' +
        'failures = failures + ? WHERE name = ?',
      [finished, finished.getTime() - started.getTime(), error ? 'failed' : 'ok', error?.slice(0, 500) ?? null, error ? 1 : 0, name],
    );
  }
}
