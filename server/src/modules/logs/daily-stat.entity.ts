import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Figures per day that charts read without scanning logs: downloads by OS, by OS and architecture and by version
 * (counted as download rows are written), active devices (a daily snapshot). Kept when logs are cleared or pruned.
 */
@Entity('daily_stats')
@Index('UQ_daily_stats_day_metric_dimension', ['day', 'metric', 'dimension'], { unique: true })
@Index('IDX_daily_stats_metric_day', ['metric', 'day'])
export class DailyStatEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** UTC day, YYYY-MM-DD. */
  @Column({ type: 'varchar', length: 10 })
  day: string;

  /** 'downloads_os', 'downloads_platform', 'downloads_version' or 'active_devices'. */
  @Column({ type: 'varchar', length: 32 })
  metric: string;

  /** The OS, `os|architecture` or the version; '' for a single figure. */
  @Column({ type: 'varchar', length: 100, default: '' })
  dimension: string;

  @Column({ type: 'bigint', transformer: { to: (v: unknown) => v, from: (v: unknown) => (v == null ? v : Number(v)) } })
  value: number;
}
