import type { ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Express, Request, Response } from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AuthenticatedRequest } from './current-user.decorator';
import { setApiResponseHeaders } from './security-headers';

/**
 * What a path that serves its calls on Node's own request and response, before Express, needs of the app (Express's
 * objects and router cost a small response several times its own work: see docs/ARCHITECTURE.md).
 */
export interface BeforeExpress {
  /** The Express app: its request and response objects for a refusal, its 'trust proxy'. */
  express: Express;
  /** The app's global exception filter: a refusal leaves as from any controller. */
  filter: ExceptionFilter;
  /** Where every request the path does not serve goes: the next such path, at last Express. */
  next: RequestListener;
}

/**
 * Sends `error` through the app's exception filter, on Express's request and response as its router would have made
 * them (with the route that took the call, and the signed-in user, where there is one): the status, body, headers
 * and failure report are those of the same error thrown in a controller. Once the response has begun, the filter
 * cuts the connection.
 */
export function refuseBeforeExpress(
  { express, filter }: Pick<BeforeExpress, 'express' | 'filter'>,
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
  facts: { route?: string; user?: AuthenticatedRequest['user'] } = {},
): void {
  const expressRequest = Object.setPrototypeOf(request, express.request) as Request;
  const expressResponse = Object.setPrototypeOf(response, express.response) as Response;
  Object.assign(
    expressRequest,
    { res: expressResponse, originalUrl: request.url, baseUrl: '' },
    facts.route === undefined ? {} : { route: { path: facts.route } },
    facts.user === undefined ? {} : { user: facts.user },
  );
  Object.assign(expressResponse, { req: expressRequest, locals: Object.create(null) as Record<string, unknown> });
  if (!response.headersSent) setApiResponseHeaders(expressResponse);
  filter.catch(error, new ExecutionContextHost([expressRequest, expressResponse]));
}
