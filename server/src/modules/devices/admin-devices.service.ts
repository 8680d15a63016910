import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import { DEVICE_DEACTIVATING, DEVICES_WRITTEN, emitAwaited, OnNotification } from '../../common/events';
import { ListTotals } from '../../common/list-totals';
import type { LicenseEntity } from '../licenses/licenses.service';
import { LicensesService, normalizeLicenseKey } from '../licenses/licenses.service';
import { DeviceSeatsService } from './device-seats.service';
import { DevicePage, DevicesRepository, DeviceWithLicense } from './devices.repository';
import { DeviceStatsDto, ListAdminDevicesQueryDto } from './dto/device.dto';

/** Versions the stats name at most. */
const VERSIONS_IN_STATS = 20;

/** Device Management for admins: the list, a license's devices, deactivation and the stats. */
@Injectable()
export class AdminDevicesService implements OnApplicationBootstrap {
  /** The admin list's totals and the stats; dropped when a device is added, released or marked (DEVICES_WRITTEN). */
  private readonly totals = new ListTotals();
  private readonly figures = new Cache<DeviceStatsDto>({ max: 16, ttlMs: 60_000, staleWhileRevalidate: true });

  constructor(
    private readonly devices: DevicesRepository,
    private readonly seats: DeviceSeatsService,
    private readonly licenses: LicensesService,
    private readonly events: EventEmitter2,
  ) {}

  /** Counts the stats once at start, in the background, so the first admin to open them does not wait for the count. */
  onApplicationBootstrap(): void {
    setTimeout(() => void this.stats().catch(() => undefined), 0);
  }

  @OnNotification(DEVICES_WRITTEN)
  devicesWritten(): void {
    this.totals.clear();
    this.figures.clear();
  }

  /**
   * The admin list: every sort and filter has an index; the status is as of now (see asOfNow); the search goes by
   * what the term looks like, each a prefix on an index: a key (any case, hyphens or not) on the license's compact
   * key, an e-mail on the owner's, other text on server_uid, hostname or device name.
   */
  async list(query: ListAdminDevicesQueryDto): Promise<DevicePage> {
    // Unsearched, the total of a status (or of all) is in the stats, which are kept anyway: no count of its own.
    // (Unless they are still being counted, just after a start or a change: then the list counts as searched ones do.)
    void this.stats().catch(() => undefined);
    const stats = query.search?.trim() ? undefined : this.figures.peek('stats');
    const known = stats ? (query.status ? stats[query.status] : stats.total) : undefined;
    const found = await this.devices.pageForAdmin(query, this.seats.silentCutoff(), this.totals, known);
    return { ...found, rows: this.seats.asOfNow(found.rows) };
  }

  async forLicenseKey(key: string): Promise<{ license: LicenseEntity; devices: DeviceWithLicense[] }> {
    const license = ApiError.orNotFound(await this.licenses.findByKey(key), 'License not found');
    const devices = this.seats.asOfNow(await this.devices.ofLicense(license.id));
    return { license, devices: devices.map((device) => Object.assign(device, { license })) };
  }

  /** Deactivates the device {license_key, server_uid}. */
  async deactivate(licenseKey: string, serverUid: string): Promise<DeviceWithLicense> {
    const license = ApiError.orNotFound(await this.licenses.findByKey(normalizeLicenseKey(licenseKey)), 'License not found');
    const device = ApiError.orNotFound(await this.devices.find(license.id, serverUid), 'No device with this server_uid on this license');
    if (device.deactivated_at === null) {
      await emitAwaited(this.events, DEVICE_DEACTIVATING, { licenseKey: license.license_key, serverUid });
      await this.seats.release(device);
    }
    return Object.assign(await this.devices.get(device.id), { license: (await this.licenses.findById(license.id)) ?? license });
  }

  /** How many active servers report this release now (a rollout's reach). */
  countReporting(version: string): Promise<number> {
    return this.devices.countReporting(version, this.seats.silentCutoff());
  }

  /** Kept for a minute and recounted in the background; an activation or deactivation here counts anew. */
  stats(): Promise<DeviceStatsDto> {
    return this.figures.get('stats', () => this.countStats());
  }

  private async countStats(): Promise<DeviceStatsDto> {
    const stats: DeviceStatsDto = {
      total: 0,
      active: 0,
      inactive: 0,
      failed: 0,
      deactivated: 0,
      holding_seats: 0,
      reported_last_24h: 0,
      by_version: [],
    };
    for (const { status, holding, count } of await this.devices.countByStatus(this.seats.silentCutoff())) {
      stats.total += count;
      if (status === 'active' || status === 'inactive' || status === 'failed') stats[status] += count;
      if (holding) stats.holding_seats += count;
      else stats.deactivated += count;
    }
    stats.reported_last_24h = await this.devices.countReportedSince(new Date(Date.now() - 24 * 3600 * 1000));
    stats.by_version = await this.devices.countByVersion(VERSIONS_IN_STATS);
    return stats;
  }
}
