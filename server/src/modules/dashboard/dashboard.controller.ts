import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/admin-only.decorator';
import { ApiGetResponse } from '../../common/response';
import { DashboardService } from './dashboard.service';
import {
  ActivityDto,
  ActivityQueryDto,
  ActivityResponseDto,
  DashboardDto,
  DashboardResponseDto,
  DownloadStatsDto,
  DownloadStatsQueryDto,
  DownloadStatsResponseDto,
  SystemHealthDto,
  SystemHealthResponseDto,
} from './dto/dashboard.dto';
import { SystemHealthService } from './system-health.service';

/** The admin Dashboard's calls. */
@ApiTags('dashboard')
@AdminOnly()
@Controller('admin')
export class DashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly health: SystemHealthService,
  ) {}

  /** `data.statistics` (users, licenses, downloads, orders, devices, and the figures of 30 days ago) and `data.system_activity`. */
  @ApiGetResponse(DashboardResponseDto, 'dashboard')
  getDashboard(): Promise<DashboardDto> {
    return this.dashboard.dashboard();
  }

  /** The newest audit trail entries (default 5), for Recent Activity. */
  @ApiGetResponse(ActivityResponseDto, 'activity')
  listActivity(@Query() query: ActivityQueryDto): Promise<ActivityDto[]> {
    return this.dashboard.activity(query.limit ?? 5);
  }

  /** healthy, warning or error with the reasons; uptime, database, storage and disk, and the scheduled jobs' last runs. */
  @ApiGetResponse(SystemHealthResponseDto, 'system/health')
  getSystemHealth(): Promise<SystemHealthDto> {
    return this.health.check();
  }

  /** Per day of a range (default the last 30 days): downloads by OS, licenses issued (trial, paid), active devices; totals by platform and version. */
  @ApiGetResponse(DownloadStatsResponseDto, 'stats/downloads')
  getDownloadStats(@Query() query: DownloadStatsQueryDto): Promise<DownloadStatsDto> {
    return this.dashboard.downloadStats(query.from, query.to);
  }
}
