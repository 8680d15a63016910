import { Injectable } from '@nestjs/common';
import { DailyStatsRepository, DailyValue } from './daily-stats.repository';

export type { DailyValue } from './daily-stats.repository';

/**
 * Downloads per day by OS (the chart per day), by `os|architecture` and by version (totals over a range): three
 * coarse figures rather than one per version × OS × architecture, so a month's chart reads a few rows per day.
 */
export type DailyMetric = 'downloads_os' | 'downloads_platform' | 'downloads_version' | 'active_devices' | 'servers_version';

/** The UTC day of a moment, YYYY-MM-DD. */
export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Figures per day and dimension (the daily_stats table), added to as things happen or set by a daily snapshot. */
@Injectable()
export class DailyStatsService {
  constructor(private readonly repository: DailyStatsRepository) {}

  /** Adds counts to the days' figures: `counts` maps `metric\tday\tdimension` to the amount. */
  add(counts: Map<string, number>): Promise<void> {
    return this.repository.add(counts);
  }

  /** Sets the day's figure (a snapshot), replacing what was there. */
  set(metric: DailyMetric, day: string, value: number, dimension = ''): Promise<void> {
    return this.repository.set(metric, day, value, dimension);
  }

  /** Each dimension's sum over the days from `from` to `to` (inclusive), largest first. */
  totals(metric: DailyMetric, from: string, to: string): Promise<Array<{ dimension: string; value: number }>> {
    return this.repository.totals(metric, from, to);
  }

  /** The figures of days from `from` to `to` (inclusive, YYYY-MM-DD). */
  range(metric: DailyMetric, from: string, to: string): Promise<DailyValue[]> {
    return this.repository.range(metric, from, to);
  }
}
