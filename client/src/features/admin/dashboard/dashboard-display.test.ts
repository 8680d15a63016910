import { describe, expect, it } from 'vitest';
import { activityColor, changePercent, healthColor, licensesPerWeek, relativeTime, shortDay, uptimeParts } from './dashboard-display';

describe('dashboard display', () => {
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

  it('sums licenses per week of seven days counted from the first day of the range, named by its first day', () => {
    const days = (from: string, count: number) =>
      Array.from({ length: count }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
    // 5 Nov 2026 is a Thursday: the weeks start on Thursdays, the last one (4 Dec) is two days long.
    const range = days('2026-11-05', 30).map((day) => ({ day, trial: 0, paid: 0 }));
    range[0] = { day: '2026-11-05', trial: 1, paid: 0 };
    range[6] = { day: '2026-11-11', trial: 0, paid: 2 };
    range[7] = { day: '2026-11-12', trial: 2, paid: 1 };
    range[29] = { day: '2026-12-04', trial: 0, paid: 3 };
    expect(licensesPerWeek(range, '2026-11-05')).toEqual([
      { week: '2026-11-05', trial: 1, paid: 2 },
      { week: '2026-11-12', trial: 2, paid: 1 },
      { week: '2026-11-19', trial: 0, paid: 0 },
      { week: '2026-11-26', trial: 0, paid: 0 },
      { week: '2026-12-03', trial: 0, paid: 3 },
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
