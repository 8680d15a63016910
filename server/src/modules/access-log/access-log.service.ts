import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { WrittenBehindLog } from '../../common/written-behind-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { APP_LOGGER, requestIdOf } from '../../config/logger';
import { MAX_LENGTH } from '../../database/column-lengths';
import { AccessLogEntity } from './access-log.entity';
import { AccessLogRepository, NewAccessLogRow } from './access-log.repository';

export type { NewAccessLogRow } from './access-log.repository';
export type AccessLogRow = AccessLogEntity;

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
/** While the database takes no rows, they wait in memory up to this many; later ones are dropped and counted. */
const MAX_BACKLOG_ROWS = 100_000;
const logger = new Logger('AccessLog');

/**
 * One row per API request (ACCESS_LOG=all|errors|off, 2xx/3xx sampled by ACCESS_LOG_SAMPLE), written behind in
 * batches into access_logs, listed, exported, pruned and cleared for the logs module (see WrittenBehindLog); with
 * ACCESS_LOG_OUTPUT=stdout or both, also (or only) written as one JSON line on stdout, for a log shipper.
 */
@Injectable()
export class AccessLogService extends WrittenBehindLog<NewAccessLogRow, AccessLogRow> {
  /** Where the rows go (ACCESS_LOG_OUTPUT). */
  private readonly toDatabase: boolean;
  /** The app's logger for rows on stdout, at its own level: LOG_LEVEL says which of the app's own lines to show. */
  private readonly stdout: PinoLogger | null;

  constructor(
    protected override readonly repository: AccessLogRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(APP_LOGGER) appLogger: PinoLogger,
  ) {
    super(repository, (rows) => repository.insert(rows), 'access_logs', logger, MAX_BACKLOG_ROWS);
    const { output } = config.logs.access;
    this.toDatabase = output !== 'stdout';
    this.stdout = output === 'db' ? null : appLogger.child({ context: 'AccessLog' }, { level: 'info' });
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
        logger.error(`Access log rows dropped while the database takes none: ${this.writer.dropped}`);
      }
    });
  }

  /** Stores rows now (rows a test or a benchmark made: requests' rows are written behind). */
  storeRows(rows: NewAccessLogRow[]): Promise<void> {
    return this.repository.insert(rows);
  }
}

/** The row as one JSON line on stdout (the time is the line's own), with the request's id as on its other lines. */
function writeLine(stdout: PinoLogger, row: NewAccessLogRow, requestId: string | null): void {
  const { created_at: _createdAt, ...fields } = row;
  stdout.info({ ...fields, reqId: requestId }, `${row.method} ${row.path} ${row.status} (${row.duration_ms} ms)`);
}
