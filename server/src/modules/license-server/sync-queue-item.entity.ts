import { type SyncQueueKind } from './license-server-sync.constants';
import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';

/**
 * A push that failed and waits for its retry: a license or version (its current state is pushed when it is
 * delivered) or the revocation of a deleted license, with the attempts so far, the last reason and when to try
 * again (backoff doubling up to a maximum).
 */
@Entity('sync_queue')
@Index('UQ_sync_queue_kind_item_key', ['kind', 'item_key'], { unique: true })
@Index('IDX_sync_queue_next_attempt_at', ['next_attempt_at'])
export class SyncQueueItemEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @VarcharColumn(16)
  kind: SyncQueueKind;

  /** The license key, or the version number. */
  @VarcharColumn(64)
  item_key: string;

  @IntColumn({ default: 0 })
  attempts: number;

  @VarcharColumn(500, { nullable: true })
  last_error: string | null;

  @DateTimeColumn()
  next_attempt_at: Date;

  @DateTimeColumn()
  created_at: Date;

  @DateTimeColumn({ nullable: true })
  last_attempt_at: Date | null;
}
