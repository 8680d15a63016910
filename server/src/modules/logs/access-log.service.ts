import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { IntervalBatch } from '../../database/interval-batch';
import { PreparedSql } from '../../database/prepared-sql';
import { AccessLogEntity } from './access-log.entity';
import { batchedRows } from './batched-rows';
import { routeOf } from './audit.interceptor';
import type { RawRow } from './log-export';
import { commonFilters, Condition, LogFilters, LogListing, LogPage, LogSource, startsWith } from './log-listing';
import { MAX_LENGTH } from '../../database/column-lengths';

type Row = Omit<AccessLogEntity, 'id'>;
/** What a row says of the request, read once it is answered. */
interface RequestFacts {
  route: string;
  path: string;
  user: AuthenticatedRequest['user'] | undefined;
  ip: string | null;
}
/** The columns of an access-log row, in the order rows are inserted (tests that seed rows use it too). */
export const ACCESS_LOG_COLUMNS: Array<keyof Row> = [
  'method',
  'route',
  'path',
  'status',
  'duration_ms',
  'bytes_out',
  'user_id',
  'user_email',
  'ip_address',
  'user_agent',
  'created_at',
];
/** While the database takes no rows, they wait in memory up to this many; later ones are dropped and counted. */
const MAX_BACKLOG_ROWS = 100_000;
/** Not worth a row: the balancer's probe. */
const NOT_LOGGED = new Set(['/api/health']);

const LEVEL_BY_STATUS: Record<string, Condition> = {
  error: { sql: 'status >= 500', params: [] },
  warning: { sql: 'status >= 400 AND status < 500', params: [] },
  info: { sql: 'status < 400', params: [] },
  debug: { sql: '1 = 0', params: [] },
};

/** One row per API request (ACCESS_LOG=all|errors|off, 2xx/3xx sampled by ACCESS_LOG_SAMPLE), written in batches. */
@Injectable()
export class AccessLogService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('AccessLog');
  private readonly sql: PreparedSql;
  private readonly listing: LogListing;
  // Nobody waits for an access row: held and written in batches; a read of the log stores what is held first.
  private readonly writer: IntervalBatch<Row>;
  readonly source: LogSource;

  constructor(
    dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sql = PreparedSql.for(dataSource);
    this.writer = batchedRows<Row>(this.sql, 'access_logs', ACCESS_LOG_COLUMNS, this.logger, MAX_BACKLOG_ROWS);
    this.listing = new LogListing(this.sql);
    this.source = {
      table: 'access_logs',
      filters: (filters) => [...commonFilters(filters, 'user_email'), ...(filters.level ? [LEVEL_BY_STATUS[filters.level]] : [])],
      searchMatches: (term) => {
        const matches = [
          startsWith('path', term),
          startsWith('route', term),
          startsWith('ip_address', term),
          startsWith('user_email', term.toLowerCase()),
        ];
        if (/^\d{3}$/.test(term)) matches.push({ sql: 'status = ?', params: [Number(term)] });
        return matches;
      },
    };
  }

  /** Express middleware: times each API request and queues its row when the answer is done (or the client left). */
  middleware() {
    return (request: Request, response: Response, next: NextFunction) => {
      if (this.config.logs.access.mode === 'off' || !request.path.startsWith('/api/') || NOT_LOGGED.has(request.path)) return next();
      this.watch(request, response, () => ({
        route: routeOf(request),
        path: request.path,
        user: (request as AuthenticatedRequest).user,
        ip: request.ip ?? null,
      }));
      next();
    };
  }

  /**
   * What the middleware does, for a call to a public API route answered before Express (see ActivationFastPath):
   * `route` says, once it is answered, which route answered it ('-' for none, as when the body was refused).
   */
  track(request: IncomingMessage, response: ServerResponse, path: string, ip: string | null, route: () => string): void {
    if (this.config.logs.access.mode === 'off') return;
    this.watch(request, response, () => ({ route: route(), path, user: undefined, ip }));
  }

  /** Queues the request's row once its answer is done; `describe` is read then (the route and user are known by then). */
  private watch(request: IncomingMessage, response: ServerResponse, describe: () => RequestFacts): void {
    const started = performance.now();
    const bytesBefore = request.socket.bytesWritten;
    // 'close' follows a complete answer too; without 'finish' before it, the client left early: nginx's 499.
    // (`on`, not `once`: it comes once, and once's wrapper costs a heartbeat a little more.)
    response.on('close', () => {
      const status = response.writableFinished ? response.statusCode : 499;
      const { mode, sampleRatio } = this.config.logs.access;
      if (mode === 'errors' && status < 400) return;
      if (status < 400 && sampleRatio < 1 && Math.random() >= sampleRatio) return;
      const { route, path, user, ip } = describe();
      const held = this.writer.add({
        method: (request.method ?? '').slice(0, 10),
        route: route.slice(0, MAX_LENGTH.accessRoute),
        path: path.slice(0, MAX_LENGTH.accessPath),
        status,
        duration_ms: Math.round(performance.now() - started),
        bytes_out: Math.max(0, Math.min(request.socket.bytesWritten - bytesBefore, 2 ** 31 - 1)),
        user_id: user?.id ?? null,
        user_email: user?.email ?? null,
        ip_address: ip?.slice(0, MAX_LENGTH.ip) ?? null,
        user_agent: request.headers['user-agent']?.slice(0, MAX_LENGTH.userAgent) ?? null,
        created_at: new Date(),
      });
      if (!held && this.writer.dropped % 10_000 === 1) {
        this.logger.error(`Access log rows dropped while the database takes none: ${this.writer.dropped}`);
      }
    });
  }

  async list(filters: LogFilters): Promise<LogPage<AccessLogEntity>> {
    await this.writer.flush();
    const page = await this.listing.page<AccessLogEntity>(this.source, filters);
    return { ...page, rows: page.rows.map((row) => this.read(row)) };
  }

  /** Every matching row as the driver returns it, in batches (for exports: see log-export.ts); what is held is stored first. */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.listing.batches(this.source, filters);
  }

  prune(before: Date): Promise<number> {
    return this.listing.prune('access_logs', before);
  }

  async clear(): Promise<void> {
    await this.writer.flush();
    await this.sql.run(this.sql.engine === 'mysql' ? 'TRUNCATE TABLE access_logs' : 'DELETE FROM access_logs', []);
    this.listing.forget();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writer.flush().catch(() => undefined);
  }

  private read(row: AccessLogEntity): AccessLogEntity {
    return {
      ...row,
      id: Number(row.id),
      status: Number(row.status),
      duration_ms: Number(row.duration_ms),
      bytes_out: Number(row.bytes_out),
      user_id: row.user_id === null ? null : Number(row.user_id),
      created_at: this.sql.readDate(row.created_at)!,
    };
  }
}
