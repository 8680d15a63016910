import { HttpStatus, ValidationError, ValidationPipe } from '@nestjs/common';
import { buildMessage, ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';
import { valid } from 'semver';
import { ApiError, FieldErrors } from './api-error';

// Rule families in the order the spec checks them: presence, then format, then length (then how common), then agreement.
const RULE_ORDER: Record<string, number> = {
  isDefined: 0,
  isNotEmpty: 0,
  whitelistValidation: 1,
  isEmail: 2,
  minLength: 3,
  maxLength: 3,
  isNotCommonPassword: 4,
  matchesProperty: 5,
};

interface Failure {
  field: string;
  rule: string;
  message: string;
  order: number;
}

function flatten(errors: ValidationError[], prefix = ''): Failure[] {
  return errors.flatMap((error, index) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
      field,
      rule,
      message,
      order: (RULE_ORDER[rule] ?? 6) * 1000 + index,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** At most this many fields are listed in `errors`: enough to fix a form, too few to echo a hostile body back. */
export const MAX_LISTED_FIELDS = 20;

/**
 * Turns class-validator failures into `{statusCode: 400, message, errors}`; `message` is the first failure in
 * the spec's rule order, `errors` lists the first MAX_LISTED_FIELDS fields in that order.
 */
export function validationErrorFactory(errors: ValidationError[]): ApiError {
  const failures = flatten(errors).sort((a, b) => a.order - b.order);
  // No prototype: a field named `constructor` or `__proto__` is a key like any other.
  const fieldErrors: FieldErrors = Object.create(null);
  let listed = 0;
  for (const failure of failures) {
    if (!(failure.field in fieldErrors)) {
      if (listed === MAX_LISTED_FIELDS) continue;
      fieldErrors[failure.field] = [];
      listed++;
    }
    fieldErrors[failure.field].push(failure.message);
  }
  return new ApiError(HttpStatus.BAD_REQUEST, failures[0]?.message ?? 'Invalid request', fieldErrors);
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: validationErrorFactory,
  });
}

/**
 * The field may be left out, but when it is sent it is validated, so `null` is refused by the type check
 * (IsOptional would let `null` through to the service as if it were a value).
 */
export const OptionalNotNull = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/**
 * A finite number with at most `places` decimals. class-validator's IsNumber({ maxDecimalPlaces }) throws on
 * numbers JavaScript prints in exponent form (5e-324), which made a price a 500.
 */
export const IsDecimal = (places: number) =>
  ValidateBy({
    name: 'isDecimal',
    constraints: [places],
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isFinite(value) && Number(value.toFixed(places)) === value,
      defaultMessage: buildMessage((each) => `${each}$property must be a number with at most ${places} decimals`),
    },
  });

/** A semantic version as written (2.1.0, 3.0.0-beta.1, 1.2.3+build.7): semver's parser, without its leading v. */
export const IsSemanticVersion = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSemanticVersion',
      validator: { validate: (value: unknown) => typeof value === 'string' && /^\d/.test(value) && valid(value) !== null },
    },
    options,
  );
