import { type Drift } from './license-server-sync.constants';
import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IntColumn, VarcharColumn } from '../../database/columns';

/** One record a reconcile found out of step: a license or version by its key, and how it differs. */
@Entity('sync_drift')
@Index('IDX_sync_drift_reconcile_id_id', ['reconcile_id', 'id'])
export class SyncDriftEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @IntColumn()
  reconcile_id: number;

  @VarcharColumn(16)
  kind: 'license' | 'version';

  @VarcharColumn(64)
  item_key: string;

  @VarcharColumn(16)
  drift: Drift;
}
