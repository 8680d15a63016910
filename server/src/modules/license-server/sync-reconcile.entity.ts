import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A comparison of this portal with its license server: counts on both sides and how many records drifted. */
@Entity('sync_reconciles')
export class SyncReconcileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 500 })
  target_url: string;

  @Column({ type: 'varchar', length: 16 })
  status: 'running' | 'completed' | 'failed';

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ type: 'int', default: 0 })
  licenses_here: number;

  @Column({ type: 'int', default: 0 })
  licenses_there: number;

  @Column({ type: 'int', default: 0 })
  versions_here: number;

  @Column({ type: 'int', default: 0 })
  versions_there: number;

  @Column({ type: 'int', default: 0 })
  missing_there: number;

  @Column({ type: 'int', default: 0 })
  missing_here: number;

  @Column({ type: 'int', default: 0 })
  different: number;

  @Column({ type: 'datetime', precision: 3 })
  started_at: Date;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  finished_at: Date | null;
}
