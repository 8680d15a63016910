import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import { Cache } from '../../common/cache';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { APP_LOGGER, requestIdOf } from '../../config/logger';
import { MAX_LENGTH } from '../../database/column-lengths';
import { AccessLogRow } from './access-log.entity';
import { CAPPED_COUNT_TTL_MS, CAPPED_COUNTS_MAX } from './access-log.constants';
import { AccessLogFilters, AccessLogPage } from './access-log-query';
import { AccessLogRepository } from './access-log.repository';
import { NewAccessLogRow, SegmentRows } from './access-log-segments';
import { AccessLogStore } from './access-log-store';
import { AccessLogTermsRepository } from './access-log-terms.repository';
import { AccessLogWriter, writeSegments } from './access-log-writer';

export type { AccessLogRow } from './access-log.entity';
export type { NewAccessLogRow } from './access-log-segments';
export type { AccessLogFilters, AccessLogLevel, AccessLogPage } from './access-log-query';
export { countPastCap } from './access-log-query';

/** The route's template that handled a request (`/api/admin/users/:id`), or '-' when no route matched. */
export const routeOf = (request: { route?: { path?: string }; baseUrl?: string }) =>
  `${request.baseUrl ?? ''}${request.route?.path ?? ''}` || '-';

/** What a row says of the request, read once its response is done. */
interface RequestFacts {
  route: string;
  path: string;
  user: AuthenticatedRequest['user'] | undefined;
  ip: string | null;
}
/** Not worth a row: the balancer's probe. */
const NOT_LOGGED = new Set(['/api/health']);
/** Parsed segments cached (at most 2,000 rows each): the lists of an open System Logs screen read the newest every 30 s. */
const PARSED_MAX = 128;
/** A parsed segment never changes (one appended to has another key): cached while screens may still ask for it. */
const PARSED_TTL_MS = 5 * 60_000;
/** Segments whose every row is older than a prune's cut, deleted at a time. */
const PRUNE_BATCH = 200;

/**
 * One row per API request (ACCESS_LOG=all|errors|off, 2xx/3xx sampled by ACCESS_LOG_SAMPLE), written in batches into
 * segments (see access-log-store.ts), listed, exported, pruned and cleared for the logs module; with
 * ACCESS_LOG_OUTPUT=stdout or both, also (or only) written as one JSON line on stdout, for a log shipper.
 */
@Injectable()
export class AccessLogService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('AccessLog');
  /** Parsed segments and counts past COUNT_CAP; both cleared when this instance removes rows. */
  private readonly parsed = new Cache<SegmentRows>({ max: PARSED_MAX, ttlMs: PARSED_TTL_MS });
  private readonly counts = new Cache<number>({ max: CAPPED_COUNTS_MAX, ttlMs: CAPPED_COUNT_TTL_MS });
  private readonly store: AccessLogStore;
  // Nobody waits for an access row: held and written in batches; an export or a clear stores what is held first.
  private readonly writer: AccessLogWriter;
  /** Where the rows go (ACCESS_LOG_OUTPUT). */
  private readonly toDatabase: boolean;
  /** The app's logger for rows on stdout, at its own level: LOG_LEVEL says which of the app's own lines to show. */
  private readonly stdout: PinoLogger | null;

  constructor(
    private readonly repository: AccessLogRepository,
    terms: AccessLogTermsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(APP_LOGGER) logger: PinoLogger,
  ) {
    const { output } = config.logs.access;
    this.toDatabase = output !== 'stdout';
    this.stdout = output === 'db' ? null : logger.child({ context: 'AccessLog' }, { level: 'info' });
    this.store = new AccessLogStore(repository, terms, { parsed: this.parsed, counts: this.counts });
    this.writer = new AccessLogWriter(repository, (error) =>
      this.logger.error(`Rows of access_log_segments not stored yet (kept for the next try): ${(error as Error).message}`),
    );
  }

  /** Express middleware: times each API request and queues its row when the response is done (or the client left). */
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
   * What the middleware does, for a call handled before Express (see ActivationFastPath, DownloadFastPath):
   * `route` says, once the response is done, which route handled it ('-' for none, as when the body was refused);
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

  /** Queues the request's row once its response is done; `describe` is read then (the route and user are known by then). */
  private watch(request: IncomingMessage, response: ServerResponse, describe: () => RequestFacts, started = performance.now()): void {
    const bytesBefore = request.socket.bytesWritten;
    // 'close' follows a complete response too; without 'finish' before it, the client left early: nginx's 499.
    // (`on`, not `once`: it comes once, and once's wrapper costs a heartbeat a little more.)
    response.on('close', () => {
      const status = response.writableFinished ? response.statusCode : 499;
      const { mode, sampleRatio } = this.config.logs.access;
      if (mode === 'errors' && status < 400) return;
      if (status < 400 && sampleRatio < 1 && Math.random() >= sampleRatio) return;
      const { route, path, user, ip } = describe();
      const row: NewAccessLogRow = {
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
      };
      if (this.stdout) writeLine(this.stdout, row, requestIdOf(request));
      if (!this.toDatabase) return;
      const held = this.writer.add(row);
      if (!held && this.writer.dropped % 10_000 === 1) {
        this.logger.error(`Access log rows dropped while the database takes none: ${this.writer.dropped}`);
      }
    });
  }

  /** A page of the log as stored: held rows (a second's at most) are not flushed, lest every read of a busy log write. */
  list(filters: AccessLogFilters): Promise<AccessLogPage> {
    return this.store.page(filters);
  }

  /** Every matching row, oldest first, in batches (for exports); what is held is stored first. */
  async *batches(filters: AccessLogFilters): AsyncGenerator<AccessLogRow[]> {
    await this.writer.flush();
    yield* this.store.batches(filters);
  }

  /** Stores rows now (rows a test or a benchmark made: requests' rows go through the writer). */
  async storeRows(rows: NewAccessLogRow[]): Promise<void> {
    await writeSegments(this.repository, rows, null);
  }

  /** Removes the segments whose every row is older than `before`, in batches; returns how many rows went. */
  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const deleted = await this.repository.deleteOlder(before, PRUNE_BATCH);
      if (!deleted.segments) return removed;
      // Counts made before are dropped once the rows have gone (one made meanwhile may count them).
      this.counts.clear();
      removed += deleted.rows;
      if (deleted.segments < PRUNE_BATCH) return removed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async clear(): Promise<void> {
    await this.writer.flush();
    this.writer.forgetOpen();
    this.parsed.clear();
    await this.repository.clear();
    this.counts.clear();
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

/** The row as one JSON line on stdout (the time is the line's own), with the request's id as on its other lines. */
function writeLine(stdout: PinoLogger, row: NewAccessLogRow, requestId: string | null): void {
  const { created_at: _createdAt, ...fields } = row;
  stdout.info({ ...fields, reqId: requestId }, `${row.method} ${row.path} ${row.status} (${row.duration_ms} ms)`);
}
