import { type SyncQueueKind } from './license-server-sync.constants';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

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

  @Column({ type: 'varchar', length: 16 })
  kind: SyncQueueKind;

  /** The license key, or the version number. */
  @Column({ type: 'varchar', length: 64 })
  item_key: string;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  last_error: string | null;

  @Column({ type: 'datetime', precision: 3 })
  next_attempt_at: Date;

  @Column({ type: 'datetime', precision: 3 })
  created_at: Date;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  last_attempt_at: Date | null;
}
