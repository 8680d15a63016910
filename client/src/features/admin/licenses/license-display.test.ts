import { exportText } from '../../../components/admin-list/ExportMenu';
import { describe, expect, it } from 'vitest';
import {
  activationColor,
  activationPercent,
  exportFileName,
  ADMIN_WARNING_DAYS,
  isSynced,
  maxActivationsOf,
  statusAction,
} from './license-display';
import { expiresSoon } from '../../../lib/license-expiry';

const DAY = 24 * 3600 * 1000;
const now = Date.parse('2025-06-01T12:00:00Z');
const at = (days: number) => new Date(now + days * DAY).toISOString();

describe('expiresSoon', () => {
  it("says 'Expires soon!' for an active license expiring within 30 days", () => {
    expect(expiresSoon({ status: 'active', expires_at: at(1) }, ADMIN_WARNING_DAYS, now)).toBe(true);
    expect(expiresSoon({ status: 'active', expires_at: at(30) }, ADMIN_WARNING_DAYS, now)).toBe(true);
  });

  it('stays quiet beyond 30 days, after expiry, and for licenses that are not active', () => {
    expect(expiresSoon({ status: 'active', expires_at: at(31) }, ADMIN_WARNING_DAYS, now)).toBe(false);
    expect(expiresSoon({ status: 'active', expires_at: at(-1) }, ADMIN_WARNING_DAYS, now)).toBe(false);
    expect(expiresSoon({ status: 'revoked', expires_at: at(5) }, ADMIN_WARNING_DAYS, now)).toBe(false);
    expect(expiresSoon({ status: 'expired', expires_at: at(5) }, ADMIN_WARNING_DAYS, now)).toBe(false);
  });
});

describe('statusAction', () => {
  it('offers Activate for a revoked license and Revoke for every other status', () => {
    expect(statusAction('revoked')).toBe('activate');
    expect(statusAction('active')).toBe('revoke');
    expect(statusAction('pending')).toBe('revoke');
    expect(statusAction('expired')).toBe('revoke');
  });
});

describe('activationPercent', () => {
  it('is the share of seats in use', () => {
    expect(activationPercent(0, 5)).toBe(0);
    expect(activationPercent(1, 4)).toBe(25);
    expect(activationPercent(2, 3)).toBe(67);
    expect(activationPercent(5, 5)).toBe(100);
  });

  it('caps the bar at 100% when more devices hold seats than allowed', () => {
    expect(activationPercent(7, 5)).toBe(100);
  });

  it('is 0 for a missing or zero maximum', () => {
    expect(activationPercent(3, 0)).toBe(0);
    expect(activationPercent(3, Number.NaN)).toBe(0);
  });

  it('turns orange near the limit and red at it', () => {
    expect(activationColor(50)).toBe('teal');
    expect(activationColor(80)).toBe('orange');
    expect(activationColor(100)).toBe('red');
  });
});

describe('maxActivationsOf', () => {
  it('keeps a number and treats anything else as 1', () => {
    expect(maxActivationsOf(3)).toBe(3);
    expect(maxActivationsOf('12')).toBe(12);
    expect(maxActivationsOf('')).toBe(1);
    expect(maxActivationsOf('abc')).toBe(1);
    expect(maxActivationsOf(undefined)).toBe(1);
  });
});

describe('sync state and sorting', () => {
  it('is Synced only with a synced_at time', () => {
    expect(isSynced({ synced_at: '2025-05-01T00:00:00Z' })).toBe(true);
    expect(isSynced({ synced_at: null })).toBe(false);
  });
});

describe('export', () => {
  it('writes the CSV text the HTTP client hands over, and JSON as JSON', () => {
    expect(exportText({ message: 'id,license_key\r\n1,SH-X\r\n' }, 'csv')).toBe('id,license_key\r\n1,SH-X\r\n');
    expect(exportText('raw', 'csv')).toBe('raw');
    expect(JSON.parse(exportText([{ id: 1 }], 'json'))).toEqual([{ id: 1 }]);
  });

  it('names the file licenses_{date}', () => {
    expect(exportFileName('csv', new Date('2025-06-01T10:00:00Z'))).toBe('licenses_2025-06-01.csv');
  });
});
