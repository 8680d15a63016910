import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, VarcharColumn } from '../../database/columns';

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
  @VarcharColumn(10)
  day: string;

  /** 'downloads_os', 'downloads_platform', 'downloads_version', 'active_devices' or 'servers_version' (seat-holding servers by the release they report). */
  @VarcharColumn(32)
  metric: string;

  /** The OS, `os|architecture` or the version; '' for a single figure. */
  @VarcharColumn(100, { default: '' })
  dimension: string;

  @BigIntColumn()
  value: number;
}
