import { describe, expect, it } from 'vitest';
import { countValue, devicesValid, licenseTotal, maxDevices, maxMonths, monthsValid } from './license-pricing';

const limits = { max_devices: 100, min_duration_months: 1, max_duration_months: 12 };

describe('license pricing', () => {
  it('computes Total = devices × months × price per device', () => {
    expect(licenseTotal(1, 1, 10)).toBe(10);
    expect(licenseTotal(3, 12, 10)).toBe(360);
    expect(licenseTotal(100, 12, 10)).toBe(12000);
  });

  it('keeps cents exact', () => {
    expect(licenseTotal(3, 7, 9.99)).toBe(209.79);
    expect(licenseTotal(1, 3, 0.1)).toBe(0.3);
    expect(licenseTotal(5, 2, 0)).toBe(0);
  });

  it('counts a non-numeric value as 1', () => {
    expect(countValue('')).toBe(1);
    expect(countValue('abc')).toBe(1);
    expect(countValue(undefined)).toBe(1);
    expect(countValue(' 4 ')).toBe(4);
    expect(countValue(7)).toBe(7);
    expect(countValue(Number.NaN)).toBe(1);
  });

  it('allows 1 to 100 devices, within pricing.max_devices', () => {
    expect(devicesValid(1, limits)).toBe(true);
    expect(devicesValid(100, limits)).toBe(true);
    expect(devicesValid(0, limits)).toBe(false);
    expect(devicesValid(101, limits)).toBe(false);
    expect(devicesValid(2.5, limits)).toBe(false);
    expect(devicesValid(11, { max_devices: 10 })).toBe(false);
    expect(maxDevices({ max_devices: 500 })).toBe(100);
  });

  it('allows months from the minimum to max_duration_months', () => {
    expect(monthsValid(1, limits)).toBe(true);
    expect(monthsValid(12, limits)).toBe(true);
    expect(monthsValid(13, limits)).toBe(false);
    expect(monthsValid(0, limits)).toBe(false);
    expect(monthsValid(2, { min_duration_months: 3, max_duration_months: 24 })).toBe(false);
    expect(maxMonths({ max_duration_months: 24 })).toBe(24);
  });
});
