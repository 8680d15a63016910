import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The health check's one statement: whether the database responds. The health module owns no table. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  async reachable(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** 'sqlite', 'mysql' or 'mariadb', as configured. */
  get engine(): string {
    return this.dataSource.options.type === 'better-sqlite3' ? 'sqlite' : this.dataSource.options.type;
  }
}
