import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A scheduled job (license expiry, session sweep, sync, retention …): who holds its lease, so one instance runs
 * each run, and how its last run went, for System Health.
 */
@Entity('scheduled_jobs')
export class ScheduledJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  /** The instance running it now (its id), until lease_until. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  lease_owner: string | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  lease_until: Date | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  last_started_at: Date | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  last_finished_at: Date | null;

  @Column({ type: 'int', nullable: true })
  last_duration_ms: number | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  last_outcome: 'ok' | 'failed' | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  last_error: string | null;

  @Column({ type: 'int', default: 0 })
  runs: number;

  @Column({ type: 'int', default: 0 })
  failures: number;
}
