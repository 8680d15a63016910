import { addMonths, effectiveStatus, extendedExpiry, parseExpiry, statusForExpiry } from './license-status';

const NOW = Date.parse('2030-01-15T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

describe('license dates and status', () => {
  it('adds calendar months in UTC, clamping like Date does at month ends', () => {
    expect(addMonths(at('2030-01-15T12:00:00.000Z'), 1).toISOString()).toBe('2030-02-15T12:00:00.000Z');
    expect(addMonths(at('2030-11-30T00:00:00.000Z'), 3).toISOString()).toBe('2031-03-02T00:00:00.000Z');
  });

  it('reads a bare date as the end of that UTC day, and a date-time as given', () => {
    expect(parseExpiry('2030-01-31').toISOString()).toBe('2030-01-31T23:59:59.999Z');
    expect(parseExpiry('2030-01-31T08:00:00Z').toISOString()).toBe('2030-01-31T08:00:00.000Z');
  });

  it('treats an active license past its expiry as expired, whether or not the job has run', () => {
    expect(effectiveStatus({ status: 'active', expires_at: at('2030-01-15T11:59:59.999Z') }, NOW)).toBe('expired');
    expect(effectiveStatus({ status: 'active', expires_at: at('2030-01-15T12:00:00.000Z') }, NOW)).toBe('expired');
    expect(effectiveStatus({ status: 'active', expires_at: at('2030-01-15T12:00:00.001Z') }, NOW)).toBe('active');
    expect(effectiveStatus({ status: 'revoked', expires_at: at('2020-01-01T00:00:00.000Z') }, NOW)).toBe('revoked');
  });

  it('extends from the current expiry, or from now once it has passed; 30 days by default', () => {
    expect(extendedExpiry(at('2030-02-01T00:00:00.000Z'), {}, NOW).toISOString()).toBe('2030-03-03T00:00:00.000Z');
    expect(extendedExpiry(at('2029-01-01T00:00:00.000Z'), { days: 1 }, NOW).toISOString()).toBe('2030-01-16T12:00:00.000Z');
    expect(extendedExpiry(at('2030-02-01T00:00:00.000Z'), { months: 2 }, NOW).toISOString()).toBe('2030-04-01T00:00:00.000Z');
  });

  it('lets a new expiry decide between active and expired, but never lifts a revocation or a pending state', () => {
    expect(statusForExpiry('expired', at('2031-01-01T00:00:00.000Z'), NOW)).toBe('active');
    expect(statusForExpiry('active', at('2029-01-01T00:00:00.000Z'), NOW)).toBe('expired');
    expect(statusForExpiry('revoked', at('2031-01-01T00:00:00.000Z'), NOW)).toBe('revoked');
    expect(statusForExpiry('pending', at('2029-01-01T00:00:00.000Z'), NOW)).toBe('pending');
  });
});
