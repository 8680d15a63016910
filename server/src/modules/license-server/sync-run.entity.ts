import { type SyncPhase } from './license-server-sync.constants';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

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

  @Column({ type: 'varchar', length: 500 })
  target_url: string;

  /** 'configured' (the license server was set or changed) or 'manual' (an admin asked for one). */
  @Column({ type: 'varchar', length: 16 })
  reason: 'configured' | 'manual';

  @Column({ type: 'varchar', length: 16 })
  status: SyncRunStatus;

  @Column({ type: 'varchar', length: 16 })
  phase: SyncPhase;

  /** The last id pushed in the current phase. */
  @Column({ type: 'int', default: 0 })
  cursor_id: number;

  @Column({ type: 'int', default: 0 })
  versions_total: number;

  @Column({ type: 'int', default: 0 })
  versions_done: number;

  @Column({ type: 'int', default: 0 })
  licenses_total: number;

  @Column({ type: 'int', default: 0 })
  licenses_done: number;

  @Column({ type: 'int', default: 0 })
  devices_total: number;

  @Column({ type: 'int', default: 0 })
  devices_done: number;

  /** Failures since the last batch that went through. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  last_error: string | null;

  /** After a failure: not before this time (backoff). */
  @Column({ type: 'datetime', precision: 3, nullable: true })
  next_attempt_at: Date | null;

  @Column({ type: 'datetime', precision: 3 })
  started_at: Date;

  @Column({ type: 'datetime', precision: 3 })
  updated_at: Date;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  finished_at: Date | null;
}
