import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  NestInterceptor,
  SetMetadata,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiOkResponse, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { map, Observable } from 'rxjs';

const ENVELOPE = 'portal:envelope';

interface EnvelopeOptions {
  /** The status of a success (200 unless given; 201 for a route that creates, 202 for one that starts work). */
  status?: 200 | 201 | 202;
  /** The message every success of the route carries. */
  message?: string;
}

/**
 * The route responds `{success: true, message?, data?, meta?}`, documented as `type` (an `Envelope(...)` class, or
 * MessageResponseDto for a message alone). The handler returns only its data (or nothing, or a `Reply` for a
 * message worked out per call or a list's meta); EnvelopeInterceptor wraps it. Sets the route's status too.
 * Named Api…Response so the swagger CLI plugin takes it for the route's success response and infers none.
 * The interceptor is the route's own, so it runs inside the global ones: the audit trail sees the response as sent.
 */
export function ApiEnvelopeResponse(type: Type<unknown>, options: EnvelopeOptions = {}) {
  const status = options.status ?? 200;
  return applyDecorators(
    HttpCode(status),
    ApiResponse({ status, type }),
    SetMetadata(ENVELOPE, options),
    UseInterceptors(EnvelopeInterceptor),
  );
}

/** A GET route (at `path`, as Get's) answered in the envelope as `type`: the read routes' pair of decorators in one. */
export const ApiGetResponse = (type: Type<unknown>, path?: string) => applyDecorators(Get(path), ApiEnvelopeResponse(type));

/** A GET that streams a stored file's bytes (the route writes the response itself: Range, HEAD, ETag). */
export const ApiGetFileResponse = (path: string) =>
  applyDecorators(
    Get(path),
    ApiProduces('application/octet-stream'),
    ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } }),
  );

/** A body with more than data: a message worked out per call, a list's meta. */
export class Reply<T = unknown> {
  constructor(readonly body: { message?: string; data?: T; meta?: object }) {}
}

/** `{success, message, data?}`. */
export const withMessage = <T>(message: string, data?: T) => new Reply<T>({ message, data });

/** `{success, data: rows, meta}`: one page of a list. */
export const pageOf = <T, M extends object>(rows: T[], meta: M) => new Reply<T[]>({ data: rows, meta });

/** Wraps what the handlers of ApiEnvelopeResponse routes return. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<EnvelopeOptions | undefined>(ENVELOPE, context.getHandler());
    if (!options) return next.handle();
    return next.handle().pipe(
      map((result: unknown) => {
        const { message = options.message, data, meta } = result instanceof Reply ? result.body : { data: result, meta: undefined };
        return {
          success: true,
          ...(message === undefined ? {} : { message }),
          ...(data === undefined ? {} : { data }),
          ...(meta === undefined ? {} : { meta }),
        };
      }),
    );
  }
}
