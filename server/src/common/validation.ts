import { HttpStatus, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldErrors } from './api-error';

// Rule families in the order the spec checks them: presence, then format, then length, then agreement.
const RULE_ORDER: Record<string, number> = {
  isDefined: 0,
  isNotEmpty: 0,
  whitelistValidation: 1,
  isEmail: 2,
  minLength: 3,
  maxLength: 3,
  matchesProperty: 4,
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
      order: (RULE_ORDER[rule] ?? 5) * 1000 + index,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Turns class-validator failures into `{statusCode: 400, message, errors}`; `message` is the first failure in the spec's rule order. */
export function validationErrorFactory(errors: ValidationError[]): ApiError {
  const failures = flatten(errors).sort((a, b) => a.order - b.order);
  const fieldErrors: FieldErrors = {};
  for (const failure of failures) (fieldErrors[failure.field] ??= []).push(failure.message);
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
