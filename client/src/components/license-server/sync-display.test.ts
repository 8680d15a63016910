import { describe, expect, it } from 'vitest';
import { syncRecommended } from './sync-display';

const HOUR = 3600 * 1000;
const now = Date.parse('2025-06-01T12:00:00Z');
const ago = (hours: number) => new Date(now - hours * HOUR).toISOString();

describe('syncRecommended', () => {
  it('recommends a sync when there has never been one', () => {
    expect(syncRecommended(null, now)).toBe(true);
    expect(syncRecommended(undefined, now)).toBe(true);
  });

  it('recommends a sync when the last one is older than 24 hours', () => {
    expect(syncRecommended(ago(24.01), now)).toBe(true);
    expect(syncRecommended(ago(24 * 30), now)).toBe(true);
  });

  it('stays quiet within 24 hours', () => {
    expect(syncRecommended(ago(0), now)).toBe(false);
    expect(syncRecommended(ago(23.9), now)).toBe(false);
    expect(syncRecommended(ago(24), now)).toBe(false);
  });

  it('treats an unreadable time as missing', () => {
    expect(syncRecommended('yesterday-ish', now)).toBe(true);
  });
});
