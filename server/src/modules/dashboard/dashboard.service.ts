import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Cache } from '../../common/cache';
import { AdminDevicesService } from '../devices/admin-devices.service';
import { DistributionFilesService } from '../distribution-files/distribution-files.service';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { AdminLicensesService } from '../licenses/admin-licenses.service';
import { AuditLogService, messageParts } from '../logs/audit-log.service';
import { DailyStatsService, dayOf } from '../logs/daily-stats.service';
import { OrdersService } from '../orders/orders.service';
import { AdminUsersService } from '../users/admin-users.service';
import { ActivityDto, DashboardDto, DownloadStatsDto, DownloadsPerDayDto } from './dto/dashboard.dto';
import { DashboardRepository } from './dashboard.repository';
import { SystemHealthService } from './system-health.service';
import { WarmAtBoot } from './warm-at-boot';
import { fleetVersions } from './fleet-versions';
import { VersionCatalogService } from '../versions/version-catalog.service';

const DAY_MS = 24 * 3600 * 1000;
const PERIOD_DAYS = 30;
/**
 * The figures are cached this long, then served stale while counted again in the background: counting a million
 * licenses for every refresh of every admin is wasted work, and no request waits for it.
 */
const TTL_MS = 15_000;
/**
 * The licenses active when the previous period began move by a few a day, and counting them reads every license:
 * cached this long, apart from the figures.
 */
const PREVIOUS_TTL_MS = 10 * 60_000;
/** Chart ranges cached at most. */
const CHART_RANGES = 16;

type PreviousPeriod = { since: Date; licensesActive: number };

/** The admin Dashboard: key figures with the previous period, recent activity, and charts per day. */
@Injectable()
export class DashboardService implements OnApplicationBootstrap {
  private readonly figures = new Cache<DashboardDto>({ max: 1, ttlMs: TTL_MS, staleWhileRevalidate: true });
  private readonly charts = new Cache<DownloadStatsDto>({ max: CHART_RANGES, ttlMs: TTL_MS, staleWhileRevalidate: true });
  private readonly previous = new Cache<PreviousPeriod>({ max: 1, ttlMs: PREVIOUS_TTL_MS, staleWhileRevalidate: true });
  /** The figures and the default charts, counted at boot; they stand in while no row was added to what they count. */
  private readonly warmFigures: WarmAtBoot<DashboardDto>;
  private readonly warmCharts: WarmAtBoot<DownloadStatsDto>;

  constructor(
    private readonly users: AdminUsersService,
    private readonly licenses: AdminLicensesService,
    private readonly files: DistributionFilesService,
    private readonly orders: OrdersService,
    private readonly devices: AdminDevicesService,
    private readonly audit: AuditLogService,
    private readonly dailyStats: DailyStatsService,
    private readonly health: SystemHealthService,
    private readonly jobs: ScheduledJobsService,
    private readonly catalog: VersionCatalogService,
    database: DashboardRepository,
  ) {
    const tables = ['users', 'licenses', 'devices', 'orders', 'distribution_files', 'daily_stats'];
    this.warmFigures = new WarmAtBoot(this.figures, () => database.highestIds(tables));
    this.warmCharts = new WarmAtBoot(this.charts, () => database.highestIds(['licenses', 'devices', 'daily_stats']));
  }

  /** Computes the figures and the default charts once at boot, so that on a large database no first call waits for them. */
  onApplicationBootstrap(): void {
    this.warmFigures.warm('dashboard', () => this.compute());
    const { from, to } = this.defaultRange();
    this.warmCharts.warm(`${from}|${to}`, () => this.computeCharts(from, to));
  }

  /** The figures, cached TTL_MS, then stale while new ones are counted (`generated_at` says when they were made). */
  dashboard(): Promise<DashboardDto> {
    return this.warmFigures.get('dashboard', () => this.compute());
  }

  async activity(limit: number): Promise<ActivityDto[]> {
    return (await this.audit.recent(limit)).map((entry) => ({
      id: entry.id,
      type: entry.level,
      action: entry.action,
      description: entry.message,
      ...messageParts(entry.context),
      user_name: entry.actor_email,
      ip_address: entry.ip_address,
      activity_time: entry.created_at,
    }));
  }

  /**
   * Downloads per day (by OS), by platform and by version; licenses issued per day; active devices per day. Cached
   * per range like the figures: at millions of rows each computation is much database work.
   */
  downloadStats(fromDay?: string, toDay?: string): Promise<DownloadStatsDto> {
    const { from, to } = this.defaultRange(fromDay, toDay);
    return this.warmCharts.get(`${from}|${to}`, () => this.computeCharts(from, to));
  }

  /** The range asked for; by default the last PERIOD_DAYS days up to today. */
  private defaultRange(fromDay?: string, toDay?: string): { from: string; to: string } {
    const to = toDay ?? dayOf(new Date());
    return { from: fromDay ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - (PERIOD_DAYS - 1) * DAY_MS)), to };
  }

  private async computeCharts(from: string, to: string): Promise<DownloadStatsDto> {
    const days = daysBetween(from, to);
    const [perOs, platforms, versions, issued, snapshots, deviceStats, fleetSnapshots, releases] = await Promise.all([
      this.dailyStats.range('downloads_os', from, to),
      this.dailyStats.totals('downloads_platform', from, to),
      this.dailyStats.totals('downloads_version', from, to),
      this.licenses.issuedPerDay(new Date(`${from}T00:00:00.000Z`), new Date(`${to}T23:59:59.999Z`)),
      this.dailyStats.range('active_devices', from, to),
      this.devices.stats(),
      this.dailyStats.range('servers_version', from, to),
      this.catalog.releases(),
    ]);

    const perDay = new Map<string, DownloadsPerDayDto>(days.map((day) => [day, { day, total: 0, windows: 0, linux: 0, macos: 0 }]));
    for (const { day, dimension: os, value } of perOs) {
      const entry = perDay.get(day);
      if (!entry) continue;
      entry.total += value;
      if (os === 'windows' || os === 'linux' || os === 'macos') entry[os] += value;
    }
    const issuedByDay = new Map(issued.map((row) => [row.day, row]));
    const activeByDay = new Map(snapshots.map((row) => [row.day, row.value]));
    const today = dayOf(new Date());
    return {
      from,
      to,
      downloads_per_day: [...perDay.values()],
      downloads_by_platform: platforms.map(({ dimension, value }) => {
        const [os_type, architecture] = dimension.split('|');
        return { os_type, architecture, downloads: value };
      }),
      downloads_by_version: versions.map(({ dimension, value }) => ({ version: dimension, downloads: value })),
      licenses_per_day: days.map((day) => ({ day, trial: issuedByDay.get(day)?.trial ?? 0, paid: issuedByDay.get(day)?.paid ?? 0 })),
      active_devices_per_day: days
        .filter((day) => activeByDay.has(day) || day === today)
        .map((day) => ({ day, active: day === today ? deviceStats.active : activeByDay.get(day)! })),
      fleet_versions: fleetVersions(
        fleetSnapshots,
        { day: today, byVersion: today >= from && today <= to ? deviceStats.by_version : [], servers: deviceStats.holding_seats },
        releases.find((release) => release.channel === 'stable')?.version ?? null,
      ),
    };
  }

  /** Keeps the day's count of active devices and of servers per version (a day's last snapshot stays as its figure). */
  @Cron(CronExpression.EVERY_HOUR, { name: 'active-devices-snapshot' })
  async snapshotActiveDevices(): Promise<void> {
    await this.jobs.run('active-devices-snapshot', 3600, async () => {
      const { active, by_version } = await this.devices.stats();
      const day = dayOf(new Date());
      await this.dailyStats.set('active_devices', day, active);
      // The servers per version, each version the day counted before included (at 0 once none reports it).
      const counts = new Map(by_version.map(({ name, count }) => [name, count]));
      for (const { dimension } of await this.dailyStats.range('servers_version', day, day)) if (!counts.has(dimension)) counts.set(dimension, 0);
      for (const [version, servers] of counts) await this.dailyStats.set('servers_version', day, servers, version);
    });
  }

  /** When the previous period began, and the licenses active then (see PREVIOUS_TTL_MS). */
  private previousPeriod(): Promise<PreviousPeriod> {
    return this.previous.get('previous', async () => {
      const since = new Date(Date.now() - PERIOD_DAYS * DAY_MS);
      return { since, licensesActive: await this.licenses.countActiveAt(since) };
    });
  }

  private async compute(): Promise<DashboardDto> {
    const { since, licensesActive: licensesActiveBefore } = await this.previousPeriod();
    const [users, licenses, files, orders, devices, recentDownloads, activity] = await Promise.all([
      this.users.counts(since),
      this.licenses.stats(),
      this.files.stats(),
      this.orders.statistics(),
      this.devices.stats(),
      this.dailyStats.range('downloads_os', dayOf(since), dayOf(new Date())),
      this.health.activity(),
    ]);
    const downloadsLast30 = recentDownloads.reduce((sum, row) => sum + row.value, 0);
    return {
      statistics: {
        users: { total: users.total, active: users.active, verified: users.verified },
        licenses: { total: licenses.total, active: licenses.active, trial: licenses.trial, paid: licenses.paid },
        downloads: { total: files.total_downloads, completed: files.total_downloads, last_30_days: downloadsLast30 },
        orders: { total: orders.total_orders, paid: orders.paid_orders, revenue_total: orders.revenue_total, currency: orders.currency },
        devices: { active: devices.active, total: devices.total },
        previous_period: {
          since,
          users_total: users.total_before,
          licenses_active: licensesActiveBefore,
          downloads_total: Math.max(0, files.total_downloads - downloadsLast30),
          revenue_total: Math.round((orders.revenue_total - orders.revenue_last_30_days) * 100) / 100,
        },
      },
      system_activity: activity,
      generated_at: new Date(),
    };
  }
}

/** Every UTC day from `from` to `to`, inclusive (at most 366). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && days.length < 366; t += DAY_MS)
    days.push(dayOf(new Date(t)));
  return days;
}
