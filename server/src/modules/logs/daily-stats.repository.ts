import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedSql, SqlStatement } from '../../database/prepared-sql';

/** A figure of a day (YYYY-MM-DD) and dimension. */
export interface DailyValue {
  day: string;
  dimension: string;
  value: number;
}

/** The daily_stats table: figures per day, metric and dimension, added to or set. */
@Injectable()
export class DailyStatsRepository {
  private readonly sql: PreparedSql;

  constructor(dataSource: DataSource) {
    this.sql = PreparedSql.for(dataSource);
  }

  add(counts: Map<string, number>): Promise<void> {
    return this.sql.atomically(this.additions(counts));
  }

  /** The statements `add` runs, to run in one transaction with others (see DownloadLogsRepository). */
  additions(counts: Map<string, number>): SqlStatement[] {
    const upsert = this.upsert(true);
    return [...counts].map(([key, value]) => {
      const [metric, day, dimension] = key.split('\t');
      return { sql: upsert, params: [day, metric, dimension.slice(0, 100), value] };
    });
  }

  async set(metric: string, day: string, value: number, dimension: string): Promise<void> {
    await this.sql.run(this.upsert(false), [day, metric, dimension, value]);
  }

  async totals(metric: string, from: string, to: string): Promise<Array<{ dimension: string; value: number }>> {
    const rows = await this.sql.all<{ dimension: string; value: number | string }>(
      'SELECT dimension, SUM(value) AS value FROM daily_stats WHERE metric = ? AND day >= ? AND day <= ? GROUP BY dimension ORDER BY value DESC',
      [metric, from, to],
    );
    return rows.map((row) => ({ dimension: row.dimension, value: Number(row.value) }));
  }

  async range(metric: string, from: string, to: string): Promise<DailyValue[]> {
    const rows = await this.sql.all<DailyValue>(
      'SELECT day, dimension, value FROM daily_stats WHERE metric = ? AND day >= ? AND day <= ? ORDER BY day',
      [metric, from, to],
    );
    return rows.map((row) => ({ day: row.day, dimension: row.dimension, value: Number(row.value) }));
  }

  /** INSERT of a (day, metric, dimension, value) row that, where the row exists, adds to its value or replaces it. */
  private upsert(add: boolean): string {
    const insert = 'INSERT INTO daily_stats (day, metric, dimension, value) VALUES (?, ?, ?, ?)';
    if (this.sql.engine === 'mysql') return `${insert} ON DUPLICATE KEY UPDATE value = ${add ? 'value + ' : ''}VALUES(value)`;
    return `${insert} ON CONFLICT (day, metric, dimension) DO UPDATE SET value = ${add ? 'value + ' : ''}excluded.value`;
  }
}
