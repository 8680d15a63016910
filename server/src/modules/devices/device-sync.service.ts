import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { yieldToEventLoop } from '../../common/yield-to-event-loop';
import { LicensesService } from '../licenses/licenses.service';
import { DeviceEntity } from './device.entity';
import { DeviceSeatsService } from './device-seats.service';
import { DevicesRepository, DeviceWithLicense } from './devices.repository';

/**
 * A device as portals exchange it when syncing with a license server. The name its owner gave it stays with the
 * portal where it was given: the sync carries what servers report.
 */
// The sync protocol carries what the license server knows of a device; its platform (os, arch) stays with this portal.
export type SyncedDevice = Omit<DeviceEntity, 'license_id' | 'license' | 'last_ip' | 'custom_name' | 'os' | 'arch' | 'created_at' | 'updated_at'> & {
  license_key: string;
};

/**
 * Devices kept in step with a license server (as the portal that syncs, and as the license server of another
 * portal), and the scheduled marking of silent devices.
 */
@Injectable()
export class DeviceSyncService {
  private readonly logger = new Logger('Devices');

  constructor(
    private readonly devices: DevicesRepository,
    private readonly seats: DeviceSeatsService,
    private readonly licenses: LicensesService,
  ) {}

  /** This server's devices after `afterId`, by id, with their license keys (for a portal that syncs from this one). */
  async listForSync(afterId: number, limit: number): Promise<SyncedDevice[]> {
    return (await this.devices.after(afterId, limit, false)).map(toSyncedDevice);
  }

  /** Devices holding a seat after `afterId`, by id, with their license keys (a full sync pushes them). */
  async seatHoldersAfter(afterId: number, limit: number): Promise<SyncedDevice[]> {
    return (await this.devices.after(afterId, limit, true)).map(toSyncedDevice);
  }

  /** Devices holding a seat (a full sync's total). */
  countSeatHolders(): Promise<number> {
    return this.devices.countSeatHolders();
  }

  /**
   * Devices pushed by a portal that was its own license server until it chose this one: each takes a seat here
   * as an activation would. A device this server already knows stays as it is here (this server decides about
   * seats now); one whose license is unknown here, or has no usable seat left, is refused.
   */
  async adoptFromPortal(
    pushed: Array<Omit<SyncedDevice, 'id' | 'deactivated_at'>>,
  ): Promise<{ created: number; unchanged: number; refused: number }> {
    const counts = { created: 0, unchanged: 0, refused: 0 };
    for (const [i, { license_key, ...fields }] of pushed.entries()) {
      await yieldToEventLoop(i);
      const license = await this.licenses.findByKey(license_key);
      if (!license) {
        counts.refused++;
        continue;
      }
      if (await this.devices.find(license.id, fields.server_uid)) {
        counts.unchanged++;
        continue;
      }
      if (!(await this.licenses.takeSeat(license.id))) {
        counts.refused++;
        continue;
      }
      const giveBack = () => this.licenses.releaseSeats(license.id, 1);
      const inserted = await this.devices
        .insertUnlessTaken({ ...fields, license_id: license.id, deactivated_at: null })
        .catch(async (error) => {
          await giveBack();
          throw error;
        });
      if (inserted) counts.created++;
      else {
        // The same server activated here a moment ago: its own activation holds the seat.
        await giveBack();
        counts.unchanged++;
      }
    }
    this.seats.written();
    return counts;
  }

  /**
   * The license server's devices, mirrored here for the licenses this portal knows (their seats come with the
   * licenses): matched by license and server_uid, added or brought up to date. Returns how many changed.
   */
  async mirrorFromServer(devices: SyncedDevice[]): Promise<number> {
    let changed = 0;
    const licenseIds = new Map<string, number | null>();
    for (const [i, { license_key, id: _serverId, ...fields }] of devices.entries()) {
      await yieldToEventLoop(i);
      if (!licenseIds.has(license_key)) licenseIds.set(license_key, (await this.licenses.findByKey(license_key))?.id ?? null);
      const licenseId = licenseIds.get(license_key);
      if (!licenseId) continue;
      const local = await this.devices.find(licenseId, fields.server_uid);
      if (!local) {
        await this.devices.insert({ ...fields, license_id: licenseId });
        changed++;
      } else if (differs(local, fields)) {
        await this.devices.update(local.id, fields);
        changed++;
      }
    }
    if (changed) this.seats.written();
    return changed;
  }

  /** Deactivates a device for a portal that syncs from this one; false when there is no such device. */
  async deactivateForPortal(licenseKey: string, serverUid: string): Promise<boolean> {
    const license = await this.licenses.findByKey(licenseKey);
    const device = license && (await this.devices.find(license.id, serverUid));
    if (!device) return false;
    if (device.deactivated_at === null) await this.seats.release(device);
    return true;
  }

  /** Devices that have not reported for DEVICE_INACTIVE_AFTER_SECONDS become inactive: every minute, and before lists are read. */
  @Cron(CronExpression.EVERY_MINUTE, { name: 'device-inactivity' })
  async markSilentDevicesInactive(): Promise<number> {
    try {
      const marked = await this.devices.markSilentInactive(this.seats.silentCutoff());
      if (marked) this.seats.written();
      return marked;
    } catch (error) {
      this.logger.error(`Marking silent devices inactive failed: ${(error as Error).message}`);
      return 0;
    }
  }
}

function toSyncedDevice(device: DeviceWithLicense): SyncedDevice {
  const { id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, deactivated_at } = device;
  const { license_key } = device.license;
  return { id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, deactivated_at, license_key };
}

const time = (date: Date | null) => date?.getTime() ?? null;

/** Whether a stored device differs from what the license server holds. */
function differs(local: DeviceEntity, server: Omit<SyncedDevice, 'license_key' | 'id'>): boolean {
  return (
    (['device_name', 'hostname', 'product', 'version', 'status'] as const).some((key) => local[key] !== server[key]) ||
    (['activated_at', 'last_activity_at', 'deactivated_at'] as const).some((key) => time(local[key]) !== time(server[key]))
  );
}
