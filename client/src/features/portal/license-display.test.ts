import { describe, expect, it } from 'vitest';
import { expiresSoon } from '../../lib/license-expiry';
import { CLIENT_WARNING_DAYS, licenseStatusColor, readyToActivate } from './license-display';

const now = Date.parse('2030-01-10T12:00:00Z');
const inDays = (days: number) => new Date(now + days * 86_400_000).toISOString();

describe('license display', () => {
  it("warns 'Expires soon!' within the next 7 days, for active licenses only", () => {
    expect(expiresSoon({ status: 'active', expires_at: inDays(6.9) }, CLIENT_WARNING_DAYS, now)).toBe(true);
    expect(expiresSoon({ status: 'active', expires_at: inDays(7) }, CLIENT_WARNING_DAYS, now)).toBe(true);
    expect(expiresSoon({ status: 'active', expires_at: inDays(7.1) }, CLIENT_WARNING_DAYS, now)).toBe(false);
    expect(expiresSoon({ status: 'active', expires_at: inDays(-1) }, CLIENT_WARNING_DAYS, now)).toBe(false);
    expect(expiresSoon({ status: 'revoked', expires_at: inDays(2) }, CLIENT_WARNING_DAYS, now)).toBe(false);
  });

  it("shows 'Ready to activate' when active with a free seat", () => {
    expect(readyToActivate({ status: 'active', current_activations: 0, max_activations: 1 })).toBe(true);
    expect(readyToActivate({ status: 'active', current_activations: 1, max_activations: 1 })).toBe(false);
    expect(readyToActivate({ status: 'expired', current_activations: 0, max_activations: 3 })).toBe(false);
  });

  it('colours active green, expired red, others grey', () => {
    expect(licenseStatusColor('active')).toBe('teal');
    expect(licenseStatusColor('expired')).toBe('red');
    expect(licenseStatusColor('revoked')).toBe('gray');
    expect(licenseStatusColor('pending')).toBe('gray');
  });
});
