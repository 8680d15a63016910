import type { LicensesPerDayDto, LogLevel, SystemHealthDtoStatus } from '../../../api/generated/model';

/** Dashboard polling and Recent Activity size (admin spec section 9). */
export const REFRESH_MS = 30_000;
export const RECENT_ACTIVITY_LIMIT = 5;

/**
 * The change against the figure of 30 days ago, in whole percent, or null when there was nothing to compare with.
 * The spec's client printed fixed labels (+12%, +8%, …); we show the real change instead of invented numbers.
 */
export function changePercent(current: number, previous: number): number | null {
  if (!Number.isFinite(previous) || previous <= 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}

/** Recent Activity colours: errors red, warnings yellow, everything else purple. */
export function activityColor(level: LogLevel): string {
  if (level === 'error') return 'red';
  if (level === 'warning') return 'yellow';
  return 'violet';
}

/** System Health colours: healthy green, warning yellow, anything else red. */
export function healthColor(status: SystemHealthDtoStatus | undefined): string {
  if (status === 'healthy') return 'green';
  if (status === 'warning') return 'yellow';
  return 'red';
}

/** Whole days, hours and minutes of an uptime in seconds. */
export function uptimeParts(seconds: number): { days: number; hours: number; minutes: number } {
  const total = Math.max(0, Math.floor(seconds / 60));
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}

const DAY_MS = 86_400_000;

/**
 * Licenses issued per week of the range: weeks of seven days counted from `from` (the first day the chart's subtitle
 * names), each named by its first day; the last one may be shorter.
 */
export function licensesPerWeek(days: LicensesPerDayDto[], from: string): Array<{ week: string; trial: number; paid: number }> {
  const start = Date.parse(`${from}T00:00:00Z`);
  const weeks = new Map<string, { week: string; trial: number; paid: number }>();
  for (const { day, trial, paid } of days) {
    const offset = Math.floor((Date.parse(`${day}T00:00:00Z`) - start) / (7 * DAY_MS));
    if (offset < 0) continue;
    const week = new Date(start + offset * 7 * DAY_MS).toISOString().slice(0, 10);
    const entry = weeks.get(week) ?? { week, trial: 0, paid: 0 };
    entry.trial += trial;
    entry.paid += paid;
    weeks.set(week, entry);
  }
  return [...weeks.values()].sort((a, b) => a.week.localeCompare(b.week));
}

/** A day (YYYY-MM-DD, UTC) as a short axis label in the reader's language: 25 Nov / Nov 25. */
export function shortDay(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/** How long ago, in the largest unit that fits (for Intl.RelativeTimeFormat): 90 s ago → [-1, 'minute']. */
export function relativeTime(at: Date, now: Date): [number, 'second' | 'minute' | 'hour' | 'day'] {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const size = Math.abs(seconds);
  if (size < 60) return [seconds, 'second'];
  if (size < 3600) return [Math.trunc(seconds / 60), 'minute'];
  if (size < 86_400) return [Math.trunc(seconds / 3600), 'hour'];
  return [Math.trunc(seconds / 86_400), 'day'];
}
