import { OptionalIntBetween } from '../../../common/fields';
import { IsCalendarDay } from '../../../common/dates';
import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LOG_LEVELS, LogLevel } from '../../logs/logs.constants';
import { Envelope } from '../../../common/envelope';
import { LicenseServerHealthDto } from '../../license-server/dto/sync.dto';

export class UserFiguresDto {
  total: number;
  active: number;
  verified: number;
}

export class LicenseFiguresDto {
  total: number;
  active: number;
  trial: number;
  paid: number;
}

export class DownloadFiguresDto {
  total: number;
  /** Every counted download is complete (a resumed transfer counts once). */
  completed: number;
  last_30_days: number;
}

export class OrderFiguresDto {
  total: number;
  paid: number;
  /** Paid revenue in whole currency units (dollars for USD). */
  revenue_total: number;
  currency: string;
}

export class DeviceFiguresDto {
  /** Servers holding a seat that reported within DEVICE_INACTIVE_AFTER_SECONDS. */
  active: number;
  total: number;
}

/** The same figures as they stood 30 days ago, so a change can be computed. */
export class PreviousPeriodDto {
  since: Date;
  users_total: number;
  licenses_active: number;
  downloads_total: number;
  revenue_total: number;
}

export class DashboardStatisticsDto {
  users: UserFiguresDto;
  licenses: LicenseFiguresDto;
  downloads: DownloadFiguresDto;
  orders: OrderFiguresDto;
  devices: DeviceFiguresDto;
  previous_period: PreviousPeriodDto;
}

export class SystemActivityDto {
  /** Seconds since this server process started. */
  server_uptime: number;
  /** Bytes; null when the database does not say. */
  database_size: number | null;
  /** Bytes of uploaded versions and distribution files. */
  storage_used: number | null;
}

export class DashboardDto {
  statistics: DashboardStatisticsDto;
  system_activity: SystemActivityDto;
  /** When the figures were computed (they are kept for up to 15 seconds). */
  generated_at: Date;
}

export class DashboardResponseDto extends Envelope(DashboardDto) {}

export class ActivityQueryDto {
  /** How many entries, newest first (default 5). */
  @OptionalIntBetween(1, 100)
  limit?: number;
}

/** An audit trail entry as Recent Activity shows it. */
export class ActivityDto {
  id: number;
  /** error, warning, or other (the level otherwise). */
  @ApiProperty({ enum: LOG_LEVELS, enumName: 'LogLevel' })
  type: LogLevel;
  action: string;
  /** The stored English message; screens compose their own from action, subject, status and reason. */
  description: string;
  /** What was acted on (an e-mail address, a key, a version, #id), as in the message. */
  subject: string | null;
  /** The HTTP status of a refusal; null when the action succeeded. */
  status: number | null;
  /** Why it was refused, as the server said it. */
  reason: string | null;
  /** Who did it (their e-mail address), or null for the system. */
  user_name: string | null;
  ip_address: string | null;
  activity_time: Date;
}

export class ActivityResponseDto extends Envelope([ActivityDto]) {}

export class DatabaseHealthDto {
  /** sqlite, mariadb or mysql. */
  engine: string;
  version: string | null;
  size_bytes: number | null;
  /** Time of a trivial query, in milliseconds. */
  round_trip_ms: number | null;
  reachable: boolean;
}

export class StorageHealthDto {
  used_bytes: number;
  file_count: number;
  /** Free and total bytes of the disk that holds the storage folder; null when unknown. */
  free_bytes: number | null;
  total_bytes: number | null;
}

export class JobHealthDto {
  name: string;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_duration_ms: number | null;
  /** ok or failed; null before the first run. */
  last_outcome: string | null;
  last_error: string | null;
  runs: number;
  failures: number;
}

export class SystemHealthDto {
  @ApiProperty({ enum: ['healthy', 'warning', 'error'] })
  status: 'healthy' | 'warning' | 'error';
  /** Why the status is not healthy, one line each. */
  reasons: string[];
  server_uptime: number;
  database: DatabaseHealthDto;
  storage: StorageHealthDto;
  jobs: JobHealthDto[];
  /** The license-server sync: last push and pull, pending items, failures with their reasons, the last reconcile's drift. */
  license_server: LicenseServerHealthDto;
  checked_at: Date;
}

export class SystemHealthResponseDto extends Envelope(SystemHealthDto) {}

export class DownloadStatsQueryDto {
  /** First day (YYYY-MM-DD, UTC); default 29 days before `to`. */
  @ApiProperty({ required: false, format: 'date', example: '2026-11-01' })
  @IsOptional()
  @IsCalendarDay({ message: 'from must be a day as YYYY-MM-DD' })
  from?: string;

  /** Last day (YYYY-MM-DD, UTC); default today. */
  @ApiProperty({ required: false, format: 'date', example: '2026-11-30' })
  @IsOptional()
  @IsCalendarDay({ message: 'to must be a day as YYYY-MM-DD' })
  to?: string;
}

export class DownloadsPerDayDto {
  day: string;
  total: number;
  windows: number;
  linux: number;
  macos: number;
}

export class PlatformDownloadsDto {
  os_type: string;
  architecture: string;
  downloads: number;
}

export class VersionDownloadsDto {
  version: string;
  downloads: number;
}

export class LicensesPerDayDto {
  day: string;
  trial: number;
  paid: number;
}

export class ActiveDevicesPerDayDto {
  day: string;
  active: number;
}

export class FleetDayDto {
  day: string;
  /** Servers on each of the charted versions, in their order. */
  servers: number[];
  /** Servers on any other version (or none reported). */
  other: number;
}

/** The versions the seat-holding servers report, per day: the fleet's releases over time. */
export class FleetVersionsDto {
  /** The versions charted: the most reported today, newest release first (at most 5). */
  versions: string[];
  /** Days with a snapshot (taken hourly, the day's last one kept), today's figures live. */
  days: FleetDayDto[];
  /** The newest published stable release (null: none yet). */
  newest_stable: string | null;
  /** Seat-holding servers now. */
  servers: number;
  /** Of those, the ones that report the newest stable release. */
  on_newest_stable: number;
}

export class DownloadStatsDto {
  from: string;
  to: string;
  /** One entry per day of the range, zeros included. */
  downloads_per_day: DownloadsPerDayDto[];
  downloads_by_platform: PlatformDownloadsDto[];
  downloads_by_version: VersionDownloadsDto[];
  licenses_per_day: LicensesPerDayDto[];
  /** Days with a snapshot (taken hourly, the day's last one kept), today's figure live. */
  active_devices_per_day: ActiveDevicesPerDayDto[];
  fleet_versions: FleetVersionsDto;
}

export class DownloadStatsResponseDto extends Envelope(DownloadStatsDto) {}
