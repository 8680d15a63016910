import { Injectable, OnModuleInit } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { AUDIT } from '../../common/audit.decorator';
import { ApiError, MALFORMED_JSON } from '../../common/api-error';
import { assertJsonWithinLimits } from '../../common/json-limits';
import { IS_PUBLIC } from '../../common/public.decorator';
import { BeforeExpress, refuseBeforeExpress } from '../../common/before-express';
import { API_RESPONSE_HEADERS } from '../../common/security-headers';
import { DrainState } from '../health/drain-state.service';
import { AccessLogService } from '../access-log/access-log.service';
import { parseActivationRequest } from './activation-request';
import { LicenseServerController } from './license-server.controller';
import { LicenseServerAction, LicenseServerService } from './license-server.service';

/** The activation API's calls by their exact path (a query string or another spelling goes the long way). */
const ACTIONS = new Map<string, { action: LicenseServerAction; path: string }>(
  (['activate', 'validate', 'deactivate'] as const).map((action) => {
    const path = `/api/license-server/${action}`;
    return [path, { action, path }];
  }),
);
/** A response's headers: those of every API response, and those LicenseServerController's responses add. */
const RESPONSE_HEADERS = [...API_RESPONSE_HEADERS, 'Content-Type', 'application/json; charset=utf-8'];
/** The access log's route of a request no route handled. */
const NO_ROUTE = '-';

/** The handlers this path stands in for. */
const HANDLERS = [
  LicenseServerController.prototype.activateServer,
  LicenseServerController.prototype.validateServer,
  LicenseServerController.prototype.deactivateServer,
];

export interface FastPathSetting extends BeforeExpress {
  /** BODY_LIMIT in bytes. */
  bodyLimit: number;
}

/**
 * The heartbeat streaming servers send all day, served before Express, whose objects and middleware are costly next to the
 * heartbeat's own work. What Express would add is done the same way here, and an API test holds both paths to the same
 * responses: API_RESPONSE_HEADERS (`Connection: close` while draining), the access-log row, the client address by 'trust proxy',
 * refusals through the global exception filter. Anything else (other spelling, query string, other body) goes on to `next`.
 */
@Injectable()
export class ActivationFastPath implements OnModuleInit {
  constructor(
    private readonly server: LicenseServerService,
    private readonly reflector: Reflector,
    private readonly drain: DrainState,
    private readonly accessLog: AccessLogService,
  ) {}

  /** Should the routes stop being public with nothing else run on them, refuse to start rather than let this path skip it. */
  onModuleInit(): void {
    for (const handler of HANDLERS) {
      const targets = [handler, LicenseServerController];
      const declared = [REQUIRED_ROLE, AUDIT, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA].filter(
        (key) => this.reflector.getAllAndOverride<unknown>(key, targets) !== undefined,
      );
      if (!this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) || declared.length)
        throw new Error(
          `POST /api/license-server/* (${handler.name}) no longer declares a public route without guards, interceptors or pipes ` +
            `(${declared.join(', ') || 'not public'}): update ActivationFastPath to run what its route runs`,
        );
    }
  }

  /** The HTTP server's request listener: this path's calls served here, every other request handed on. */
  listener(setting: FastPathSetting): RequestListener {
    const smallBody = Math.min(SMALL_BODY_BYTES, setting.bodyLimit);
    const trust = setting.express.get('trust proxy fn') as (address: string, hop: number) => boolean;
    return (request: IncomingMessage, response: ServerResponse) => {
      const call = request.method === 'POST' ? ACTIONS.get(request.url ?? '') : undefined;
      if (!call || !isJsonWithBody(request) || !isSmallPlainJson(request, smallBody)) return setting.next(request, response);
      const ip = proxyaddr(request, trust);
      // As through the router: a body refused before it reached a route is logged without one.
      let route = NO_ROUTE;
      this.accessLog.track(request, response, call.path, ip, () => route);
      const refuse = (error: unknown) => {
        this.drain.closeIfDraining(response);
        refuseBeforeExpress(setting, request, response, error, route === NO_ROUTE ? {} : { route });
      };
      readSmallJson(request, (refused, body) => {
        if (refused) return refuse(refused);
        route = call.path;
        this.respond(call.action, body, ip, response).catch(refuse);
      });
    };
  }

  private async respond(action: LicenseServerAction, body: unknown, ip: string, response: ServerResponse): Promise<void> {
    const parsed = parseActivationRequest(body, action !== 'deactivate');
    const signed = await this.server.handle(action, parsed, ip);
    this.drain.closeIfDraining(response);
    response.writeHead(200, [...RESPONSE_HEADERS, 'Content-Length', String(Buffer.byteLength(signed.body))]);
    response.end(signed.body);
  }
}

/** Heartbeats are a few hundred bytes: small plain UTF-8 bodies of stated length skip body-parser's overhead; it reads all others. */
const SMALL_BODY_BYTES = 8 * 1024;

function isSmallPlainJson(request: IncomingMessage, maxBytes: number): boolean {
  const { 'content-length': length, 'content-encoding': encoding, 'content-type': type } = request.headers;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type ?? '')?.[1]?.toLowerCase();
  return (
    length !== undefined &&
    /^\d+$/.test(length) &&
    Number(length) <= maxBytes &&
    request.headers['transfer-encoding'] === undefined &&
    (encoding === undefined || encoding.toLowerCase() === 'identity') &&
    (charset === undefined || charset === 'utf-8' || charset === 'utf8')
  );
}

/** As the app's JSON parser would (strict, same limits and refusals); a client gone mid-body gets no response (logged as 499). */
function readSmallJson(request: IncomingMessage, done: (refused: unknown, body?: unknown) => void): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    let body: unknown;
    try {
      // body-parser's strict mode: JSON that is not an object or array is refused like malformed JSON.
      // eslint-disable-next-line no-control-regex -- JSON's whitespace (tab, line feed, return), as body-parser has it
      if (!/^[\x20\x09\x0a\x0d]*[[{]/.test(text)) throw new SyntaxError('not an object or array');
      body = JSON.parse(text);
    } catch {
      return done(ApiError.badRequest(MALFORMED_JSON));
    }
    try {
      assertJsonWithinLimits(body);
    } catch (refusal) {
      return done(refusal);
    }
    done(undefined, body);
  });
}

/** A body announced as `application/json` (any parameters), as the JSON parser reads it; anything else is not ours. */
function isJsonWithBody(request: IncomingMessage): boolean {
  const { 'content-type': type, 'content-length': length, 'transfer-encoding': encoding } = request.headers;
  if (encoding === undefined && (length === undefined || length === '0')) return false;
  return type !== undefined && type.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}
