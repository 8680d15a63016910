import { HttpException, HttpStatus } from '@nestjs/common';

export type FieldErrors = Record<string, string[]>;

/** What a body that is not valid JSON (or, as body-parser's strict mode has it, not an object or array) is told. */
export const MALFORMED_JSON = 'Malformed JSON in request body';

/** The one error body of the API: `{statusCode, message, code?, errors?}`; `code` names a refusal a program may act on. */
export class ApiError extends HttpException {
  constructor(status: HttpStatus, message: string, errors?: FieldErrors, code?: string) {
    super({ statusCode: status, message, ...(code && { code }), ...(errors && { errors }) }, status);
  }

  static badRequest(message: string, errors?: FieldErrors) {
    return new ApiError(HttpStatus.BAD_REQUEST, message, errors);
  }
  static unauthorized(message = 'Authentication required. Please log in.') {
    return new ApiError(HttpStatus.UNAUTHORIZED, message);
  }
  static forbidden(message: string) {
    return new ApiError(HttpStatus.FORBIDDEN, message);
  }
  static notFound(message: string) {
    return new ApiError(HttpStatus.NOT_FOUND, message);
  }
  /** The record a lookup found, or 404 with `message`. */
  static orNotFound<T>(found: T | null | undefined, message: string): T {
    if (found === null || found === undefined) throw ApiError.notFound(message);
    return found;
  }
  static conflict(message: string, errors?: FieldErrors) {
    return new ApiError(HttpStatus.CONFLICT, message, errors);
  }
}

/** 429 with the seconds to wait, which the exception filter sends as Retry-After. */
export class TooManyAttemptsError extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(HttpStatus.TOO_MANY_REQUESTS, message);
  }
}
