import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Worker } from 'node:worker_threads';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PreparedSql } from './prepared-sql';
import type { ReadResponse } from './read-worker';
import { sqliteFile } from './sqlite-file';
import { startWorker } from './workers';

type Pending = { resolve: (rows: unknown[]) => void; reject: (error: Error) => void };

/**
 * Reads that aggregate a large table (stats, exact totals of long lists). better-sqlite3 runs every statement on the
 * event loop, so a count over a million rows would hold every other request for a second or more: on a SQLite file
 * these run in a worker thread instead. On MySQL/MariaDB (already asynchronous) and in-memory SQLite they run
 * through the data source as usual.
 */
export class OffLoopReads {
  private static readonly instances = new WeakMap<DataSource, OffLoopReads>();
  /** Data sources whose application closed: a late read (a background recount) starts no new worker. */
  private static readonly closed = new WeakSet<DataSource>();
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private readonly path: string | null;

  private constructor(private readonly dataSource: DataSource) {
    this.path = sqliteFile(dataSource);
  }

  static for(dataSource: DataSource): OffLoopReads {
    let instance = OffLoopReads.instances.get(dataSource);
    if (!instance) OffLoopReads.instances.set(dataSource, (instance = new OffLoopReads(dataSource)));
    return instance;
  }

  /** Stops the worker of this data source (at application shutdown). */
  static async close(dataSource: DataSource): Promise<void> {
    OffLoopReads.closed.add(dataSource);
    await OffLoopReads.instances.get(dataSource)?.stop();
  }

  /** The raw rows of a select (as getRawMany would give them). */
  rows<T>(qb: SelectQueryBuilder<ObjectLiteral>): Promise<T[]> {
    const [sql, params] = qb.getQueryAndParameters();
    return this.query<T>(sql, params);
  }

  /** How many rows a select matches (its order, limit and offset ignored). */
  async count(qb: SelectQueryBuilder<ObjectLiteral>): Promise<number> {
    const [sql, params] = qb
      .clone()
      .select('1', 'one')
      .orderBy()
      .offset(undefined)
      .limit(undefined)
      .skip(undefined)
      .take(undefined)
      .getQueryAndParameters();
    const [row] = await this.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${sql}) counted`, params);
    return Number(row?.n ?? 0);
  }

  query<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (!this.path || OffLoopReads.closed.has(this.dataSource)) return this.dataSource.query(sql, params);
    const worker = this.start(this.path);
    const id = this.next++;
    const bound = params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
    return new Promise<T[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, sql, params: bound });
    });
  }

  private start(path: string): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('read-worker', { path });
    // Idle, it does not keep the process alive; while a read is pending it does (see query and settle).
    worker.unref();
    worker.on('message', ({ id, rows, error }: ReadResponse) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      if (!this.pending.size) worker.unref();
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(rows ?? []);
    });
    const fail = (error: Error) => {
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('The read worker stopped')));
    return (this.worker = worker);
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/** Stops the read worker and closes PreparedSql's bulk reader when the application closes (tests open and close many). */
@Injectable()
export class ReadConnectionsShutdown implements OnApplicationShutdown {
  constructor(private readonly dataSource: DataSource) {}

  onApplicationShutdown(): Promise<void> {
    PreparedSql.closeBulkReader(this.dataSource);
    return OffLoopReads.close(this.dataSource);
  }
}
