import { ExceptionFilter, Injectable, OnModuleInit } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { AUDIT } from '../../common/audit.decorator';
import { ApiError, MALFORMED_JSON } from '../../common/api-error';
import { assertJsonWithinLimits } from '../../common/json-limits';
import { IS_PUBLIC } from '../../common/public.decorator';
import { parseActivationRequest } from './activation-request';
import { LicenseServerController, sendSignedAnswer } from './license-server.controller';
import { LicenseServerAction, LicenseServerService } from './license-server.service';

/** The activation API's calls by their exact path (a query string or another spelling goes the long way). */
const ACTIONS = new Map<string, { action: LicenseServerAction; route: { path: string } }>(
  (['activate', 'validate', 'deactivate'] as const).map((action) => {
    const path = `/api/license-server/${action}`;
    return [path, { action, route: { path } }];
  }),
);

/** The handlers this path stands in for. */
const HANDLERS = [
  LicenseServerController.prototype.activateServer,
  LicenseServerController.prototype.validateServer,
  LicenseServerController.prototype.deactivateServer,
];

/** Parses a JSON body into request.body (the app's parser, with its limits); calls back with a refusal, if any. */
export type JsonBodyParser = (request: Request, response: Response, done: (error?: unknown) => void) => void;

/** What the fast path needs of the app it stands in front of. */
export interface FastPathSetting {
  /** The Express app: its request and response prototypes, and where every other request goes. */
  express: Express;
  /** The middleware Express runs before the router for every /api request, in order (headers, access log...). */
  before: RequestHandler[];
  /** The app's JSON parser (body-parser, with the limits of json-limits.ts): for every body but a small plain one. */
  parseJson: JsonBodyParser;
  /** BODY_LIMIT in bytes. */
  bodyLimit: number;
  /** The app's global exception filter: a refusal leaves as from any controller. */
  filter: ExceptionFilter;
}

/**
 * POST /api/license-server/{activate,validate,deactivate} with a JSON body, answered before Express's router: the
 * heartbeat that streaming servers send all day. With a fixed answer in place of the call's work, a call cost
 * 104-122 µs of CPU through Express's router (twenty layers before this route) and 80-106 before it (bench:validate,
 * SQLite); Nest's guard, interceptor and parameter machinery would add more. The request still gets what Express
 * gives every request: its request and response objects, the
 * middleware that runs before the router for every API call (security headers, access log), the app's JSON parser
 * with its limits, and a refusal answered by the global exception filter. The same steps run as in
 * LicenseServerController (parseActivationRequest, the service, the same bytes written). Anything else (another
 * spelling, a query string, a form or no body) goes to Express untouched, where the controller answers it.
 */
@Injectable()
export class ActivationFastPath implements OnModuleInit {
  constructor(
    private readonly server: LicenseServerService,
    private readonly reflector: Reflector,
  ) {}

  /**
   * The routes are public and nothing else runs on them (no role, audit, guard, interceptor or pipe of their own);
   * should that change, the portal refuses to start rather than let this path skip it.
   */
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

  /** The HTTP server's request listener: this path's calls answered here, every other request handed to Express. */
  listener({ express, before, parseJson, bodyLimit, filter }: FastPathSetting): RequestListener {
    const smallBody = Math.min(SMALL_BODY_BYTES, bodyLimit);
    const { request: requestPrototype, response: responsePrototype } = express;
    return (incoming: IncomingMessage, outgoing: ServerResponse) => {
      const call = incoming.method === 'POST' ? ACTIONS.get(incoming.url ?? '') : undefined;
      if (!call || !isJsonWithBody(incoming)) return express(incoming, outgoing);
      // What Express does with every request before its router (app.handle, router.handle).
      const request = Object.setPrototypeOf(incoming, requestPrototype) as Request;
      const response = Object.setPrototypeOf(outgoing, responsePrototype) as Response;
      Object.assign(request, { res: response, originalUrl: request.url, baseUrl: '' });
      Object.assign(response, { req: request, locals: Object.create(null) as Record<string, unknown> });
      const refuse = (error: unknown) => filter.catch(error, new ExecutionContextHost([request, response]));
      let step = 0;
      const next = (error?: unknown): void => {
        if (error) return refuse(error);
        if (step < before.length) return void before[step++](request, response, next);
        const parse = isSmallPlainJson(request, smallBody) ? readSmallJson : parseJson;
        parse(request, response, (refused) => {
          if (refused) return refuse(refused);
          // What the access log records as the route, as Nest's router would have set it.
          Object.assign(request, { route: call.route });
          this.answer(call.action, request, response).catch(refuse);
        });
      };
      next();
    };
  }

  private async answer(action: LicenseServerAction, request: Request, response: Response): Promise<void> {
    const parsed = parseActivationRequest(request.body, action !== 'deactivate');
    const { body } = await this.server.handle(action, parsed, request.ip ?? null);
    sendSignedAnswer(response, body);
  }
}

/**
 * Heartbeats are a few hundred bytes. A body this small, of a stated length, neither compressed nor in another
 * charset than UTF-8, is read by readSmallJson; the app's parser (body-parser) reads all others, at several times
 * the cost for a small body.
 */
const SMALL_BODY_BYTES = 8 * 1024;

function isSmallPlainJson(request: Request, maxBytes: number): boolean {
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

/**
 * The small body read and parsed as the app's JSON parser would (strict: an object or array; UTF-8; the same
 * limits and refusals). The HTTP parser delivers exactly Content-Length bytes; a client that leaves before sending
 * them gets no answer (the access log records it as 499).
 */
const readSmallJson: JsonBodyParser = (request, _response, done) => {
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
    request.body = body;
    done();
  });
};

/** A body announced as `application/json` (any parameters), as the JSON parser reads it; anything else is not ours. */
function isJsonWithBody(request: IncomingMessage): boolean {
  const { 'content-type': type, 'content-length': length, 'transfer-encoding': encoding } = request.headers;
  if (encoding === undefined && (length === undefined || length === '0')) return false;
  return type !== undefined && type.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}
