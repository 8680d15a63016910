import { type Drift } from './license-server-sync.constants';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One record a reconcile found out of step: a license or version by its key, and how it differs. */
@Entity('sync_drift')
@Index('IDX_sync_drift_reconcile_id_id', ['reconcile_id', 'id'])
export class SyncDriftEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  reconcile_id: number;

  @Column({ type: 'varchar', length: 16 })
  kind: 'license' | 'version';

  @Column({ type: 'varchar', length: 64 })
  item_key: string;

  @Column({ type: 'varchar', length: 16 })
  drift: Drift;
}
