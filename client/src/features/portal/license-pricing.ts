/** The Purchase License form's arithmetic and limits; the server computes the real price, this is for display. */

/** Devices per purchase (spec section 9), further limited by pricing.max_devices. */
export const DEVICES_MIN = 1;
export const DEVICES_MAX = 100;

export interface PricingLimits {
  max_devices: number;
  min_duration_months: number;
  max_duration_months: number;
}

/** A form value as a number; a non-numeric (or empty) value counts as 1 (spec section 5). */
export function countValue(value: string | number | null | undefined, fallback = 1): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : fallback;
  const text = (value ?? '').trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : fallback;
}

/** The most devices one purchase may have: pricing.max_devices, never above 100. */
export const maxDevices = (limits: Pick<PricingLimits, 'max_devices'>) => Math.max(DEVICES_MIN, Math.min(DEVICES_MAX, limits.max_devices));

/** The most months: pricing.max_duration_months (default 12). */
export const maxMonths = (limits: Pick<PricingLimits, 'max_duration_months'>) => Math.max(1, limits.max_duration_months);

/** The fewest months: pricing.min_duration_months, at least 1. */
export const minMonths = (limits: Pick<PricingLimits, 'min_duration_months'>) => Math.max(1, limits.min_duration_months);

export const devicesValid = (devices: number, limits: Pick<PricingLimits, 'max_devices'>) =>
  Number.isInteger(devices) && devices >= DEVICES_MIN && devices <= maxDevices(limits);

export const monthsValid = (months: number, limits: Pick<PricingLimits, 'min_duration_months' | 'max_duration_months'>) =>
  Number.isInteger(months) && months >= minMonths(limits) && months <= maxMonths(limits);

/**
 * Total = devices × months × price per device, in the currency's main unit. Worked out in cents so that
 * 3 × 7 × 9.99 is 209.79 and not 209.79000000000002.
 */
export function licenseTotal(devices: number, months: number, pricePerDevice: number): number {
  const cents = Math.round(pricePerDevice * 100);
  return (devices * months * cents) / 100;
}
