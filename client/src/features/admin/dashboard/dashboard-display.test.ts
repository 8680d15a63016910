import { describe, expect, it } from 'vitest';
import {
  activityColor,
  changePercent,
  healthColor,
  inThousands,
  licensesPerWeek,
  relativeTime,
  shortDay,
  uptimeParts,
} from './dashboard-display';

describe('dashboard display', () => {
  it('shows totals in thousands with K, in the reader’s number format', () => {
    expect(inThousands(12_345, 'en')).toBe('12.3K');
    expect(inThousands(12_345, 'de')).toBe('12,3K');
    expect(inThousands(0, 'en')).toBe('0K');
    expect(inThousands(1_250_000, 'en')).toBe('1,250K');
  });

  it('computes the change against 30 days ago, and none without a base to compare with', () => {
    expect(changePercent(112, 100)).toBe(12);
    expect(changePercent(50, 100)).toBe(-50);
    expect(changePercent(5, 0)).toBeNull();
  });

  it('colours activity and health as the spec says', () => {
    expect([activityColor('error'), activityColor('warning'), activityColor('info'), activityColor('debug')]).toEqual([
      'red',
      'yellow',
      'violet',
      'violet',
    ]);
    expect([healthColor('healthy'), healthColor('warning'), healthColor('error'), healthColor(undefined)]).toEqual([
      'green',
      'yellow',
      'red',
      'red',
    ]);
  });

  it('splits an uptime into days, hours and minutes', () => {
    expect(uptimeParts(3 * 86_400 + 4 * 3600 + 12 * 60 + 59)).toEqual({ days: 3, hours: 4, minutes: 12 });
    expect(uptimeParts(-5)).toEqual({ days: 0, hours: 0, minutes: 0 });
  });

  it('sums licenses per ISO week, named by its Monday', () => {
    const weeks = licensesPerWeek([
      { day: '2026-11-22', trial: 1, paid: 0 }, // Sunday: the week of Monday 16 Nov
      { day: '2026-11-23', trial: 2, paid: 1 }, // Monday
      { day: '2026-11-25', trial: 0, paid: 3 },
    ]);
    expect(weeks).toEqual([
      { week: '2026-11-16', trial: 1, paid: 0 },
      { week: '2026-11-23', trial: 2, paid: 4 },
    ]);
  });

  it('labels days in the reader’s language', () => {
    expect(shortDay('2026-11-25', 'en')).toBe('Nov 25');
    expect(shortDay('2026-11-25', 'de')).toBe('25. Nov.');
  });

  it('says how long ago in the largest unit that fits', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);
    expect(ago(5)).toEqual([-5, 'second']);
    expect(ago(90)).toEqual([-1, 'minute']);
    expect(ago(2 * 3600 + 5)).toEqual([-2, 'hour']);
    expect(ago(3 * 86_400)).toEqual([-3, 'day']);
  });
});
