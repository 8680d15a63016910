import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { statfs, stat } from 'node:fs/promises';
import { Cache } from '../../common/cache';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DistributionFilesService } from '../distribution-files/distribution-files.service';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { SyncStatusService } from '../license-server/sync-status.service';
import { VersionsService } from '../versions/versions.service';
import { DashboardRepository } from './dashboard.repository';
import { WarmAtBoot } from './warm-at-boot';
import { DatabaseHealthDto, StorageHealthDto, SystemActivityDto, SystemHealthDto } from './dto/dashboard.dto';

/** Below this much free disk the portal warns: uploads and logs would soon fail. */
const LOW_DISK_BYTES = 1024 ** 3;
const LOW_DISK_SHARE = 0.05;
/**
 * The database's size changes slowly, and MariaDB's information_schema is slow to sum it at size: cached this long,
 * then served stale while measured again. One measured at boot stands in until then, whatever was added meanwhile.
 */
const SIZE_TTL_MS = 60_000;
const STORAGE_TTL_MS = 15_000;

/** The System Health panel: database, storage, disk, scheduled jobs and the license-server sync, with a status and its reasons. */
@Injectable()
export class SystemHealthService implements OnApplicationBootstrap {
  private readonly size = new Cache<{ bytes: number | null }>({ max: 1, ttlMs: SIZE_TTL_MS, staleWhileRevalidate: true });
  /** Storage used sums every file's row (tens of thousands at size): cached like the dashboard's figures. */
  private readonly storageFigures = new Cache<StorageHealthDto>({ max: 1, ttlMs: STORAGE_TTL_MS, staleWhileRevalidate: true });
  private readonly warmStorage: WarmAtBoot<StorageHealthDto>;

  constructor(
    private readonly figures: DashboardRepository,
    private readonly versions: VersionsService,
    private readonly files: DistributionFilesService,
    private readonly jobs: ScheduledJobsService,
    private readonly licenseServer: SyncStatusService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.warmStorage = new WarmAtBoot(this.storageFigures, () => figures.highestIds(['versions', 'distribution_files']));
  }

  onApplicationBootstrap(): void {
    this.databaseSize().catch(() => undefined);
    this.warmStorage.warm('storage', () => this.measureStorage());
  }

  /** Uptime, database size and storage used: the dashboard's System Health card. */
  async activity(): Promise<SystemActivityDto> {
    const [database, storage] = await Promise.all([this.database(), this.storage()]);
    return { server_uptime: Math.floor(process.uptime()), database_size: database.size_bytes, storage_used: storage.used_bytes };
  }

  /** The check running now: requests that arrive meanwhile share it (its result started at most one check before them). */
  private running: Promise<SystemHealthDto> | null = null;

  /**
   * The status and what it rests on, checked now: about ten queries (jobs, sync state, retry queue, database), so
   * concurrent requests (every open dashboard polls it) share the check in progress rather than each run their own.
   */
  check(): Promise<SystemHealthDto> {
    this.running ??= this.checkNow().finally(() => (this.running = null));
    return this.running;
  }

  private async checkNow(): Promise<SystemHealthDto> {
    const [database, storage, jobs, licenseServer] = await Promise.all([
      this.database(),
      this.storage(),
      this.jobs.list().catch(() => []),
      this.licenseServer.health(),
    ]);
    const reasons: string[] = [];
    let status: SystemHealthDto['status'] = 'healthy';
    const warn = (reason: string) => {
      reasons.push(reason);
      if (status === 'healthy') status = 'warning';
    };
    if (!database.reachable) {
      status = 'error';
      reasons.push('The database does not answer');
    }
    if (storage.free_bytes !== null && storage.total_bytes) {
      if (storage.free_bytes < LOW_DISK_BYTES || storage.free_bytes / storage.total_bytes < LOW_DISK_SHARE) {
        warn(`Low disk space: ${(storage.free_bytes / 1024 ** 3).toFixed(1)} GiB free`);
      }
    }
    for (const job of jobs)
      if (job.last_outcome === 'failed') warn(`Scheduled job ${job.name} failed: ${job.last_error ?? 'no reason given'}`);
    licenseServer.problems.forEach(warn);
    return {
      status,
      reasons,
      server_uptime: Math.floor(process.uptime()),
      database,
      storage,
      jobs: jobs.map(({ lease_owner: _owner, lease_until: _until, ...job }) => job),
      license_server: licenseServer,
      checked_at: new Date(),
    };
  }

  private async database(): Promise<DatabaseHealthDto> {
    const engine = this.config.database.type === 'sqlite' ? 'sqlite' : this.config.database.flavor;
    const started = process.hrtime.bigint();
    try {
      const version = await this.figures.version();
      const roundTrip = Number(process.hrtime.bigint() - started) / 1e6;
      return {
        // A mysql:// URL may point at MariaDB: its version says which.
        engine: engine === 'sqlite' ? engine : version?.toLowerCase().includes('mariadb') ? 'mariadb' : 'mysql',
        version,
        size_bytes: await this.databaseSize(),
        round_trip_ms: Math.round(roundTrip * 100) / 100,
        reachable: true,
      };
    } catch {
      return { engine, version: null, size_bytes: null, round_trip_ms: null, reachable: false };
    }
  }

  /** The database's size in bytes, cached (see SIZE_TTL_MS). */
  private async databaseSize(): Promise<number | null> {
    return (await this.size.get('database', async () => ({ bytes: await this.measureDatabaseSize() }))).bytes;
  }

  private async measureDatabaseSize(): Promise<number | null> {
    if (this.config.database.type === 'sqlite') {
      const path = this.config.database.path;
      // A file that is not there (no WAL yet) takes no space.
      const files = await Promise.all([path, `${path}-wal`].map((file) => stat(file).catch(() => null)));
      return files.reduce((sum, info) => sum + (info?.size ?? 0), 0);
    }
    return this.figures.mysqlSize();
  }

  private storage(): Promise<StorageHealthDto> {
    return this.warmStorage.get('storage', () => this.measureStorage());
  }

  private async measureStorage(): Promise<StorageHealthDto> {
    const [versions, files, disk] = await Promise.all([
      this.versions.storageUsage(),
      this.files.stats(),
      // An object store has no disk to watch: free and total stay unknown rather than describe this host's disk.
      this.config.storage.driver === 'local' ? statfs(this.config.storage.dir).catch(() => null) : null,
    ]);
    return {
      used_bytes: versions.bytes + files.total_size,
      file_count: versions.files + files.total_files,
      free_bytes: disk ? disk.bavail * disk.bsize : null,
      total_bytes: disk ? disk.blocks * disk.bsize : null,
    };
  }
}
