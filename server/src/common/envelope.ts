import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from './list-query.dto';

// Not a .dto.ts file on purpose: the swagger CLI plugin would read these generic classes; their schema is declared here.

type DataType = Type<unknown> | [Type<unknown>];
type DataOf<D> = D extends [Type<infer T>] ? T[] : D extends Type<infer T> ? T : never;
type MessageMode = 'required' | 'optional';
type MessageOf<M> = M extends 'required' ? { message: string } : M extends 'optional' ? { message?: string } : unknown;
type MetaOf<M> = M extends Type<infer T> ? { meta: T } : unknown;

export interface EnvelopeOptions<M extends MessageMode | undefined, Meta extends Type<unknown> | undefined> {
  /** Whether the response carries a `message` always ('required') or sometimes ('optional'); none by default. */
  message?: M;
  /** The type of `meta` (e.g. the page figures of a list); none by default. */
  meta?: Meta;
}

/**
 * The `{success, message?, data, meta?}` envelope of a response, as a base class: `class XResponseDto extends
 * Envelope(XDto) {}` keeps the schema named after the subclass, so the generated client's type names stay.
 * `data` is one object (`Envelope(XDto)`) or a list (`Envelope([XDto])`).
 */
export function Envelope<
  D extends DataType,
  M extends MessageMode | undefined = undefined,
  Meta extends Type<unknown> | undefined = undefined,
>(data: D, options: EnvelopeOptions<M, Meta> = {}): Type<{ success: boolean; data: DataOf<D> } & MessageOf<M> & MetaOf<Meta>> {
  class EnvelopeDto {}
  // Declared in this order, so the schema lists (and requires) success, message, data, meta as the hand-written classes did.
  ApiProperty({ type: Boolean })(EnvelopeDto.prototype, 'success');
  if (options.message) ApiProperty({ type: String, required: options.message === 'required' })(EnvelopeDto.prototype, 'message');
  ApiProperty({ type: Array.isArray(data) ? [data[0]] : data })(EnvelopeDto.prototype, 'data');
  if (options.meta) ApiProperty({ type: options.meta })(EnvelopeDto.prototype, 'meta');
  return EnvelopeDto as Type<{ success: boolean; data: DataOf<D> } & MessageOf<M> & MetaOf<Meta>>;
}

/** `{success, data: T[], meta}`: one page of a list, with its figures (PageMetaDto unless a list adds its own). */
export function PageOf<T, Meta = PageMetaDto>(
  item: Type<T>,
  meta: Type<Meta> = PageMetaDto as Type<Meta>,
): Type<{ success: boolean; data: T[]; meta: Meta }> {
  return Envelope([item], { meta });
}
