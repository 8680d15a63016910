/** What other modules may know of the devices module's vocabulary, without reaching into its entities. */

export const DEVICE_STATUSES = ['active', 'inactive', 'failed'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Machine-readable outcome of an activation, validation or deactivation. */
export const ACTIVATION_CODES = [
  'VALID',
  'DEACTIVATED',
  'EXPIRED',
  'REVOKED',
  'PENDING',
  'TOO_MANY_DEVICES',
  'NOT_FOUND',
  'NOT_ACTIVATED',
  'VERSION_NOT_COVERED',
] as const;
export type ActivationCode = (typeof ACTIVATION_CODES)[number];
