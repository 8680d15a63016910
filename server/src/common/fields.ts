import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidationOptions } from 'class-validator';
import { Type } from 'class-transformer';
import { MAX_LENGTH } from '../database/column-lengths';
import { NormalizeEmail, Trim } from './transforms';

/*
 * A DTO field's common rule sets, one decorator each. The rules run in the order they would run written one above the
 * other (applyDecorators applies its list the other way round), and Swagger is given the bounds its plugin reads
 * from class-validator's decorators written out. `tooLong` is MaxLength's options (its message).
 */
const stack = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/** A string of at most `max` characters. */
export const Text = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ maxLength: max }), IsString(), MaxLength(max, tooLong));

/** A string of at most `max` characters that may be left out. */
export const OptionalText = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ required: false, maxLength: max }), IsOptional(), IsString(), MaxLength(max, tooLong));

/** A string of 1 to `max` characters. */
export const NonEmptyText = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ minLength: 1, maxLength: max }), IsString(), IsNotEmpty(), MaxLength(max, tooLong));

/** Text, trimmed first. */
export const TrimmedText = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ maxLength: max }), Trim(), IsString(), MaxLength(max, tooLong));

/** OptionalText, trimmed first. */
export const OptionalTrimmedText = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ required: false, maxLength: max }), IsOptional(), Trim(), IsString(), MaxLength(max, tooLong));

/** Trimmed, then 1 to `max` characters. */
export const NonEmptyTrimmedText = (max: number, tooLong?: ValidationOptions) =>
  stack(ApiProperty({ minLength: 1, maxLength: max }), Trim(), IsString(), IsNotEmpty(), MaxLength(max, tooLong));

/** An integer from `min` to `max`. */
export const IntBetween = (min: number, max: number) => stack(ApiProperty({ minimum: min, maximum: max }), IsInt(), Min(min), Max(max));

/** An integer from `min` up. */
export const IntFrom = (min: number) => stack(ApiProperty({ minimum: min }), IsInt(), Min(min));

/** An integer from `min` to `max` that may be left out; a query string's text is read as a number. */
export const OptionalIntBetween = (min: number, max: number) =>
  stack(
    ApiProperty({ required: false, minimum: min, maximum: max }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(min),
    Max(max),
  );

/** One of `values`, or left out; Swagger lists them (as a named enum with `enumName`). */
export const OptionalOneOf = (values: readonly (string | number)[], schema: { enumName?: string; default?: string | number } = {}) =>
  stack(ApiProperty({ enum: values, required: false, ...schema }), IsOptional(), IsIn(values));

/** An e-mail address, trimmed and lower-cased, required (the sign-up and sign-in forms' messages). */
export const EmailAddress = () =>
  stack(
    ApiProperty({ format: 'email', maxLength: MAX_LENGTH.email }),
    NormalizeEmail(),
    IsEmail({}, { message: 'Please enter a valid email address' }),
    MaxLength(MAX_LENGTH.email),
    IsNotEmpty({ message: 'This field is required' }),
  );
