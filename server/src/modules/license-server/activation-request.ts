import { ApiError, FieldErrors } from '../../common/api-error';
import { NONCE_PATTERN, SERVER_UID_PATTERN } from './dto/activation.dto';
import { MAX_LENGTH } from '../../database/column-lengths';
import { ARCHITECTURES, type Architecture, OS_TYPES, type OsType } from '../versions/versions.constants';

export interface ActivationRequest {
  license_key: string;
  server_uid: string;
  nonce: string;
  device_name?: string | null;
  hostname?: string | null;
  product?: string | null;
  version?: string | null;
  os?: OsType | null;
  arch?: Architecture | null;
}

type OptionalText = 'device_name' | 'hostname' | 'product' | 'version';

/** The optional text fields of an activation, with their longest length. */
const OPTIONAL_TEXT: Record<OptionalText, number> = {
  device_name: MAX_LENGTH.deviceName,
  hostname: MAX_LENGTH.hostname,
  product: MAX_LENGTH.productName,
  version: MAX_LENGTH.version,
};

const isOptionalText = (field: string): field is OptionalText => Object.prototype.hasOwnProperty.call(OPTIONAL_TEXT, field);

/** The optional fields that name one of a few values, with those values. */
const OPTIONAL_CHOICES = { os: OS_TYPES, arch: ARCHITECTURES } as const;
type OptionalChoice = keyof typeof OPTIONAL_CHOICES;
const isOptionalChoice = (field: string): field is OptionalChoice => field === 'os' || field === 'arch';

/**
 * Checks an activation API body by the same rules as ActivationRequestDto / DeactivationRequestDto (which stay
 * the documented contract), without class-transformer and class-validator, which are costly on the heartbeat
 * path. activation-request.spec.ts proves both agree.
 */
export function parseActivationRequest(body: unknown, withDetails: boolean): ActivationRequest {
  // No prototype: a body key named `constructor` or `__proto__` is a field like any other, never an inherited member.
  const errors: FieldErrors = Object.create(null);
  const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const fail = (field: string, message: string) => ((errors[field] ??= []).push(message), undefined);

  const key = typeof input.license_key === 'string' ? input.license_key.trim() : undefined;
  if (!key) fail('license_key', 'license_key is required');
  else if (key.length > MAX_LENGTH.licenseKey)
    fail('license_key', `license_key must be shorter than or equal to ${MAX_LENGTH.licenseKey} characters`);

  if (typeof input.server_uid !== 'string') fail('server_uid', 'server_uid is required');
  else if (!SERVER_UID_PATTERN.test(input.server_uid))
    fail('server_uid', 'server_uid must be 8 to 128 letters, digits, dots, underscores, colons or hyphens');

  if (typeof input.nonce !== 'string') fail('nonce', 'nonce is required');
  else if (!NONCE_PATTERN.test(input.nonce)) fail('nonce', 'nonce must be 16 to 128 letters, digits, underscores or hyphens');

  const request: ActivationRequest = { license_key: key!, server_uid: input.server_uid as string, nonce: input.nonce as string };
  for (const field of Object.keys(input)) {
    if (field === 'license_key' || field === 'server_uid' || field === 'nonce') continue;
    if (withDetails && isOptionalChoice(field)) {
      const value = input[field];
      const choices: readonly string[] = OPTIONAL_CHOICES[field];
      if (value === null) request[field] = null;
      else if (value !== undefined && !(typeof value === 'string' && choices.includes(value)))
        fail(field, `${field} must be one of the following values: ${choices.join(', ')}`);
      else if (value !== undefined) Object.assign(request, { [field]: value });
      continue;
    }
    if (!withDetails || !isOptionalText(field)) {
      fail(field, `property ${field} should not exist`);
      continue;
    }
    const max = OPTIONAL_TEXT[field];
    const value = input[field];
    if (value === undefined) continue;
    if (value === null) {
      request[field] = null;
      continue;
    }
    if (typeof value !== 'string') fail(field, `${field} must be a string`);
    else if (value.trim().length > max) fail(field, `${field} must be shorter than or equal to ${max} characters`);
    else request[field] = value.trim();
  }
  const failed = Object.keys(errors);
  if (failed.length) throw ApiError.badRequest(errors[failed[0]][0], errors);
  return request;
}
