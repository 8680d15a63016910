import { Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';

/** A comparison of this portal with its license server: counts on both sides and how many records drifted. */
@Entity('sync_reconciles')
export class SyncReconcileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @VarcharColumn(500)
  target_url: string;

  @VarcharColumn(16)
  status: 'running' | 'completed' | 'failed';

  @VarcharColumn(500, { nullable: true })
  error: string | null;

  @IntColumn({ default: 0 })
  licenses_here: number;

  @IntColumn({ default: 0 })
  licenses_there: number;

  @IntColumn({ default: 0 })
  versions_here: number;

  @IntColumn({ default: 0 })
  versions_there: number;

  @IntColumn({ default: 0 })
  missing_there: number;

  @IntColumn({ default: 0 })
  missing_here: number;

  @IntColumn({ default: 0 })
  different: number;

  @DateTimeColumn()
  started_at: Date;

  @DateTimeColumn({ nullable: true })
  finished_at: Date | null;
}
