import { Transform } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import { IsDate, isISO8601, registerDecorator, ValidationOptions } from 'class-validator';

/**
 * A real day of the calendar written as YYYY-MM-DD. JavaScript's Date rolls 2026-02-30 over to March 2 and refuses
 * 2026-13-45 only later (a RangeError deep in a service), so a day is checked here, where it is taken.
 */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Validates a YYYY-MM-DD field as a real calendar day. */
export function IsCalendarDay(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isCalendarDay',
      target: object.constructor,
      propertyName,
      options,
      validator: { validate: isCalendarDay },
    });
}

/** An ISO 8601 date-time that exists becomes its calendar day; anything else is left for IsCalendarDay to refuse. */
export const ToCalendarDay = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    return /^\d{4}-\d{2}-\d{2}[T ]/.test(text) && isISO8601(text, { strict: true }) ? text.slice(0, 10) : text;
  });

/**
 * An ISO 8601 date or date-time whose day and time exist becomes a Date; anything else becomes an invalid Date,
 * which IsDate refuses with the field's message (a plain `@Type(() => Date)` rolls 2026-02-30 over to March 2).
 */
export const ToDateTime = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value instanceof Date || value === undefined || value === null) return value;
    if (typeof value !== 'string' || !isISO8601(value, { strict: true })) return new Date(Number.NaN);
    return new Date(value);
  });

/** A date-time (ToDateTime, then IsDate with `options`, its message). */
export const IsDateTime = (options?: ValidationOptions) => applyDecorators(ToDateTime(), IsDate(options));
