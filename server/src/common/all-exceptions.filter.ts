import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { requestLine } from '../config/logger';
import { driverCode, isDatabaseUnavailable, isUniqueViolation, isValueTooLong } from '../database/driver-errors';
import { MALFORMED_JSON, TooManyAttemptsError } from './api-error';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication required. Please log in.',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests. Please try again later.',
};

/** Where the filter reports what operators must see: server errors, and refusals of a signed-in user's access. */
export interface FailureReporter {
  serverError(request: Request, status: number, error: unknown): void;
  accessDenied(request: Request, message: string): void;
}

/** Requests whose client went away before they were read in full, since the process started (for health figures). */
export const clientAborts = { total: 0 };

/**
 * The client closed the connection before its request was read in full: the body parser's abort (raw-body's
 * `request.aborted`), or any failure of a request cut short on a closed connection (an upload's parser words it
 * its own way). Nobody is left to read a response, and nothing failed on this side.
 */
function clientWentAway(exception: unknown, request: Request): boolean {
  const { type, code } = (exception ?? {}) as { type?: unknown; code?: unknown };
  if (type === 'request.aborted' || code === 'ECONNABORTED') return true;
  return !request.complete && (request.destroyed || request.socket?.destroyed === true);
}

/** Every failure leaves as `{statusCode, message, code?, errors?}`; internals never reach the client. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(private readonly reporter?: FailureReporter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    if (clientWentAway(exception, request)) {
      clientAborts.total++;
      const reason = exception instanceof Error ? exception.message : String(exception);
      this.logger.debug(
        requestLine(
          request,
          `${request.method} ${request.path}: the client went away before its request was read (${reason}; ${clientAborts.total} so far)`,
        ),
      );
      response.destroy();
      return;
    }
    if (response.headersSent) {
      // Too late for an error response (a download failed mid-transfer): cut the connection so the client sees it.
      this.logger.error(
        requestLine(request, `Failed after the response began: ${exception instanceof Error ? exception.stack : String(exception)}`),
      );
      this.reporter?.serverError(request, 500, exception);
      response.destroy();
      return;
    }
    const { status, body } = this.describe(exception);
    if (status >= 500) this.reporter?.serverError(request, status, exception);
    else if (status === 403) this.reporter?.accessDenied(request, String(body.message));
    if (exception instanceof TooManyAttemptsError) response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    if (status === HttpStatus.SERVICE_UNAVAILABLE && body.message === DATABASE_UNAVAILABLE) response.setHeader('Retry-After', '5');
    // A 502/504 is another server's failure, already worded for the admin: a warning, not this portal's bug.
    if (status === 502 || status === 504) this.logger.warn(requestLine(request, String(body.message)));
    else if (body.message === DATABASE_UNAVAILABLE)
      this.logger.warn(requestLine(request, `${DATABASE_UNAVAILABLE} (${driverCode(exception) ?? 'connection lost'})`));
    else if (status >= 500) this.logger.error(requestLine(request, exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)));
    response.status(status).json(body);
  }

  private describe(exception: unknown): { status: number; body: Record<string, unknown> } {
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const raw = exception.getResponse();
      if (typeof raw === 'string') return { status, body: { statusCode: status, message: raw } };
      const { message, errors, code } = raw as { message?: unknown; errors?: unknown; code?: unknown };
      const text = Array.isArray(message)
        ? message.join(', ')
        : typeof message === 'string'
          ? message
          : (STATUS_TEXT[status] ?? exception.message);
      return { status, body: { statusCode: status, message: text, ...(typeof code === 'string' && { code }), ...(errors ? { errors } : {}) } };
    }
    // body-parser and multer errors carry an HTTP status of their own (malformed JSON, body too large).
    const httpLike = exception as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
    const status = httpLike?.status ?? httpLike?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message =
        httpLike.type === 'entity.parse.failed'
          ? MALFORMED_JSON
          : httpLike.type === 'entity.too.large'
            ? 'Request body too large'
            : httpLike.expose && httpLike.message
              ? httpLike.message
              : (STATUS_TEXT[status] ?? 'Invalid request');
      return { status, body: { statusCode: status, message } };
    }
    if (isDatabaseUnavailable(exception)) {
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: { statusCode: HttpStatus.SERVICE_UNAVAILABLE, message: DATABASE_UNAVAILABLE },
      };
    }
    if (exception instanceof QueryFailedError && isUniqueViolation(exception)) {
      return {
        status: HttpStatus.CONFLICT,
        body: { statusCode: HttpStatus.CONFLICT, message: 'A record with these values already exists' },
      };
    }
    if (exception instanceof QueryFailedError && isValueTooLong(exception)) {
      // A DTO limit that does not fit its column: worth fixing, so say so in the log.
      this.logger.warn(`Refused by the database as too long: ${exception.message}`);
      // The database names the column ("Data too long for column 'changelog'"); columns carry the fields' names.
      const column = /column '(\w+)'/.exec(exception.message)?.[1];
      const message = `${column ?? 'A value'} is too long (or out of range) to store`;
      const body = { statusCode: HttpStatus.BAD_REQUEST, message };
      return { status: HttpStatus.BAD_REQUEST, body: column ? { ...body, errors: { [column]: [message] } } : body };
    }
    return { status: 500, body: { statusCode: 500, message: 'Internal server error' } };
  }
}

const DATABASE_UNAVAILABLE = 'The database is unavailable. Please try again in a few seconds.';
