import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import pino, { DestinationStream, Level, Logger } from 'pino';
import type { AppConfig } from './app-config';

/** Provides the app's pino logger (see appLogger). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/** LOG_LEVEL as pino's levels: Nest's verbose lines are pino's trace, shown with debug. */
const LEVELS: Record<AppConfig['logLevel'], Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'trace' };

/**
 * Where withRequestIds notes the id on the request. Lines about a request carry it by passing it (`reqId`): an
 * AsyncLocalStorage would find it for any line, but on Node 20 it turns on promise hooks, which every promise of
 * every request then pays for (bench/HISTORY.md, 2026-12-05).
 */
const REQUEST_ID = Symbol('requestId');
/** An incoming X-Request-Id used as it is: a proxy's or client's id that is safe to repeat in logs and headers. */
const SAFE_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;

const loggers = new WeakMap<AppConfig, Logger>();

/**
 * The app's logger (pino), one per configuration: the app's own lines (Nest's Logger, through nestjs-pino) and the
 * access rows written to stdout. A line about a request carries its id (`reqId`; see requestLine). JSON lines on
 * stdout with the level as a word (`"level":"ERROR"`) and the time in ISO 8601, what log shippers read; in
 * development, readable lines (pino-pretty, where it is installed). LOG_LEVEL sets the level.
 */
export function appLogger(config: AppConfig): Logger {
  let logger = loggers.get(config);
  if (logger) return logger;
  const pretty = config.env === 'development' ? prettyOutput() : null;
  logger = pino(
    {
      level: LEVELS[config.logLevel],
      timestamp: pino.stdTimeFunctions.isoTime,
      // pino-pretty reads pino's level numbers; log shippers (and a grep for ERROR) read words.
      ...(pretty ? {} : { formatters: { level: (label: string) => ({ level: label.toUpperCase() }) } }),
    },
    pretty ?? pino.destination({ dest: 1, sync: true }),
  );
  loggers.set(config, logger);
  return logger;
}

/** Nest's logger for the app: its lines (`new Logger('Context')`) go to appLogger through nestjs-pino. */
export function nestLogger(config: AppConfig): LoggerService {
  return new AppNestLogger(new AppPinoLogger(appLogger(config)), {});
}

/** Nest's start-up lines of every module loaded and every route mapped: what the portal is made of, not news. */
const START_UP_DETAIL = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Logs Nest's start-up detail at debug, so what an operator reads at a start is the portal's own lines. */
class AppNestLogger extends NestPinoLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && START_UP_DETAIL.has(context)) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

/** nestjs-pino's PinoLogger on this app's logger (left to itself, it keeps the first app's in the process). */
class AppPinoLogger extends PinoLogger {
  constructor(private readonly root: Logger) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Logger {
    return this.root;
  }
}

/** pino-pretty's stream for development (a development dependency: absent, the lines stay JSON). */
function prettyOutput(): DestinationStream | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as typeof import('pino-pretty');
    return pretty({
      sync: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
    });
  } catch {
    return null;
  }
}

/** The request's id: a safe incoming X-Request-Id, else a new UUID. */
export function genReqId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The HTTP server's request listener `listener`, each request given its id first: sent back as X-Request-Id, and
 * on every line logged while the request is handled (before Express too: the fast paths, the body parsers).
 */
export function withRequestIds(listener: RequestListener): RequestListener {
  return (request, response) => {
    const id = genReqId(request);
    (request as IncomingMessage & { [REQUEST_ID]?: string })[REQUEST_ID] = id;
    response.setHeader('X-Request-Id', id);
    listener(request, response);
  };
}

/** The id withRequestIds gave the request (null for one that did not come through it). */
export function requestIdOf(request: IncomingMessage): string | null {
  return (request as IncomingMessage & { [REQUEST_ID]?: string })[REQUEST_ID] ?? null;
}

/** A line about `request` for Nest's Logger: its message with the request's id beside it (`reqId`). */
export function requestLine(request: IncomingMessage, message: string): { msg: string; reqId?: string } {
  const reqId = requestIdOf(request);
  return reqId === null ? { msg: message } : { msg: message, reqId };
}
