import { Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';

/**
 * A scheduled job (license expiry, session sweep, sync, retention …): who holds its lease, so one instance runs
 * each run, and how its last run went, for System Health.
 */
@Entity('scheduled_jobs')
export class ScheduledJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  /** The instance running it now (its id), until lease_until. */
  @VarcharColumn(64, { nullable: true })
  lease_owner: string | null;

  @DateTimeColumn({ nullable: true })
  lease_until: Date | null;

  @DateTimeColumn({ nullable: true })
  last_started_at: Date | null;

  @DateTimeColumn({ nullable: true })
  last_finished_at: Date | null;

  @IntColumn({ nullable: true })
  last_duration_ms: number | null;

  @VarcharColumn(10, { nullable: true })
  last_outcome: 'ok' | 'failed' | null;

  @VarcharColumn(500, { nullable: true })
  last_error: string | null;

  @IntColumn({ default: 0 })
  runs: number;

  @IntColumn({ default: 0 })
  failures: number;
}
