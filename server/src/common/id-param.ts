import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from './api-error';

/** Ids are positive INT columns on both engines. */
const MAX_ID = 2 ** 31 - 1;
const CANONICAL_ID = /^[1-9]\d{0,9}$/;

/**
 * A path id written the one way: decimal digits without sign, spaces, leading zeros or exponent. ParseIntPipe
 * took ' 1', '0x10', '1e3' and '1.5' for numbers, so one record had many names.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = CANONICAL_ID.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) throw ApiError.badRequest('id must be a positive whole number');
    return id;
  }
}

/**
 * The raw `:id`. A custom decorator, so the global ValidationPipe leaves it alone: with `transform` on, it turns
 * a `@Param() id: number` into `+value` before any other pipe sees the text, and `+' 0x10'` is 16.
 */
const RawIdParam = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<Request>().params.id,
);

/** `@IdParam() id: number`: the route's `:id`, parsed by ParseIdPipe and documented as such. */
export const IdParam = (): ParameterDecorator => (target, key, index) => {
  RawIdParam(ParseIdPipe)(target, key, index);
  if (key !== undefined)
    applyDecorators(ApiParam({ name: 'id', schema: { type: 'integer', minimum: 1, maximum: MAX_ID } }))(
      target,
      key,
      Object.getOwnPropertyDescriptor(target, key)!,
    );
};
