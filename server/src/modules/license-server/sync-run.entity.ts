import { type SyncPhase } from './license-server-sync.constants';
import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';

export type SyncRunStatus = 'running' | 'completed' | 'cancelled';

/**
 * A full sync: every version, every license and every seat-holding device pushed to one license server, in
 * batches. The phase and cursor (the last id pushed in that phase) are stored after each batch, so a run that
 * fails or is interrupted continues where it stopped.
 */
@Entity('sync_runs')
@Index('IDX_sync_runs_status', ['status'])
export class SyncRunEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @VarcharColumn(500)
  target_url: string;

  /** 'configured' (the license server was set or changed) or 'manual' (an admin asked for one). */
  @VarcharColumn(16)
  reason: 'configured' | 'manual';

  @VarcharColumn(16)
  status: SyncRunStatus;

  @VarcharColumn(16)
  phase: SyncPhase;

  /** The last id pushed in the current phase. */
  @IntColumn({ default: 0 })
  cursor_id: number;

  @IntColumn({ default: 0 })
  versions_total: number;

  @IntColumn({ default: 0 })
  versions_done: number;

  @IntColumn({ default: 0 })
  licenses_total: number;

  @IntColumn({ default: 0 })
  licenses_done: number;

  @IntColumn({ default: 0 })
  devices_total: number;

  @IntColumn({ default: 0 })
  devices_done: number;

  /** Failures since the last batch that went through. */
  @IntColumn({ default: 0 })
  attempts: number;

  @VarcharColumn(500, { nullable: true })
  last_error: string | null;

  /** After a failure: not before this time (backoff). */
  @DateTimeColumn({ nullable: true })
  next_attempt_at: Date | null;

  @DateTimeColumn()
  started_at: Date;

  @DateTimeColumn()
  updated_at: Date;

  @DateTimeColumn({ nullable: true })
  finished_at: Date | null;
}
