import { compare, valid } from 'semver';
import type { FleetVersionsDto } from './dto/dashboard.dto';

/** Versions charted at most; the rest are summed as other. */
export const CHARTED_VERSIONS = 5;

/** A day's snapshot row: servers (`value`) on a version (`dimension`). */
export interface VersionSnapshot {
  day: string;
  dimension: string;
  value: number;
}

/** Newest semantic version first; what is not one ('unknown') last. */
function newestFirst(a: string, b: string): number {
  const [va, vb] = [valid(a), valid(b)];
  if (va && vb) return compare(vb, va);
  return va ? -1 : vb ? 1 : a.localeCompare(b);
}

/**
 * The fleet chart: the days' snapshots (before today) and today's live counts, by version. The versions charted are
 * today's most reported ones, newest first; every other version of a day (and servers that reported none) is `other`.
 */
export function fleetVersions(
  snapshots: VersionSnapshot[],
  today: { day: string; byVersion: Array<{ name: string; count: number }>; servers: number },
  newestStable: string | null,
): FleetVersionsDto {
  const versions = [...today.byVersion]
    .filter((entry) => entry.name !== 'unknown' && entry.count > 0)
    .sort((a, b) => b.count - a.count)
    .slice(0, CHARTED_VERSIONS)
    .map((entry) => entry.name)
    .sort(newestFirst);
  const byDay = new Map<string, Map<string, number>>();
  for (const { day, dimension, value } of snapshots) {
    if (day >= today.day) continue;
    if (!byDay.has(day)) byDay.set(day, new Map());
    byDay.get(day)!.set(dimension, value);
  }
  byDay.set(today.day, new Map(today.byVersion.map((entry) => [entry.name, entry.count])));
  const days = [...byDay.keys()].sort().map((day) => {
    const counts = byDay.get(day)!;
    const servers = versions.map((version) => counts.get(version) ?? 0);
    // Today every seat-holding server counts (the live counts name the 20 most reported versions only).
    const total = day === today.day ? today.servers : [...counts.values()].reduce((sum, n) => sum + n, 0);
    return { day, servers, other: Math.max(0, total - servers.reduce((sum, n) => sum + n, 0)) };
  });
  const onNewest = newestStable ? (today.byVersion.find((entry) => entry.name === newestStable)?.count ?? 0) : 0;
  return { versions, days, newest_stable: newestStable, servers: today.servers, on_newest_stable: onNewest };
}
