import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { IntervalBatch } from '../../database/interval-batch';
import { PreparedSql } from '../../database/prepared-sql';
import { AccessLogRow } from './access-log.entity';
import { NewAccessLogRow, SEGMENT_MAX_ROWS } from './access-log-segments';
import { AccessLogStore, OpenSegment } from './access-log-store';
import { writtenBehind } from './batched-rows';
import { routeOf } from './audit.interceptor';
import type { RawRow } from './log-export';
import { LogFilters, LogPage } from './log-listing';
import { MAX_LENGTH } from '../../database/column-lengths';

/** What a row says of the request, read once it is answered. */
interface RequestFacts {
  route: string;
  path: string;
  user: AuthenticatedRequest['user'] | undefined;
  ip: string | null;
}
/** While the database takes no rows, they wait in memory up to this many; later ones are dropped and counted. */
const MAX_BACKLOG_ROWS = 100_000;
/** Not worth a row: the balancer's probe. */
const NOT_LOGGED = new Set(['/api/health']);

/** One row per API request (ACCESS_LOG=all|errors|off, 2xx/3xx sampled by ACCESS_LOG_SAMPLE), written in batches. */
@Injectable()
export class AccessLogService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('AccessLog');
  private readonly sql: PreparedSql;
  private readonly store: AccessLogStore;
  // Nobody waits for an access row: held and written in batches (a segment each); an export or a clear stores what is
  // held first.
  private readonly writer: IntervalBatch<NewAccessLogRow>;
  /** The segment the writer appends to next (see AccessLogStore.write). */
  private open: OpenSegment | null = null;

  constructor(
    dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sql = PreparedSql.for(dataSource);
    this.store = new AccessLogStore(this.sql);
    this.writer = writtenBehind<NewAccessLogRow>(
      async (rows) => {
        this.open = await this.store.write(rows, this.open);
      },
      'access_log_segments',
      this.logger,
      { maxBacklog: MAX_BACKLOG_ROWS, maxHeld: SEGMENT_MAX_ROWS },
    );
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
   * What the middleware does, for a call answered before Express (see ActivationFastPath, DownloadFastPath):
   * `route` says, once it is answered, which route answered it ('-' for none, as when the body was refused);
   * `user`, who was signed in; `started`, when the request came (performance.now()), where that was earlier.
   */
  track(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    ip: string | null,
    route: () => string,
    { user, started }: { user?: AuthenticatedRequest['user']; started?: number } = {},
  ): void {
    if (this.config.logs.access.mode === 'off') return;
    this.watch(request, response, () => ({ route: route(), path, user, ip }), started);
  }

  /** Queues the request's row once its answer is done; `describe` is read then (the route and user are known by then). */
  private watch(request: IncomingMessage, response: ServerResponse, describe: () => RequestFacts, started = performance.now()): void {
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

  /**
   * A page of the log as stored: rows still held (a second's at most) are not stored for it, lest every read of a
   * busy log write a few rows of its own.
   */
  list(filters: LogFilters): Promise<LogPage<AccessLogRow>> {
    return this.store.page(filters);
  }

  /** Every matching row, oldest first, in batches (for exports: see log-export.ts); what is held is stored first. */
  async *batches(filters: LogFilters): AsyncGenerator<RawRow[]> {
    await this.writer.flush();
    yield* this.store.batches(filters);
  }

  /** Stores rows now (rows a test or a benchmark made: requests' rows go through the writer). */
  async storeRows(rows: NewAccessLogRow[]): Promise<void> {
    await this.store.write(rows, null);
  }

  prune(before: Date): Promise<number> {
    return this.store.prune(before);
  }

  async clear(): Promise<void> {
    await this.writer.flush();
    this.open = null;
    await this.store.clear();
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
}
