import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { DEVICE_DEACTIVATING, emitAwaited } from '../../common/events';
import { DeviceSeatsService } from './device-seats.service';
import { DevicePage, DevicesRepository, DeviceWithLicense } from './devices.repository';

/** My Devices: the servers on the caller's licenses. */
@Injectable()
export class CustomerDevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly seats: DeviceSeatsService,
    private readonly events: EventEmitter2,
  ) {}

  /** Devices on the caller's licenses, newest activation first; the status as of now. */
  async listForUser(user: AuthUser, page: number, limit: number): Promise<DevicePage> {
    const found = await this.devices.pageForUser(user.id, page, limit);
    return { ...found, rows: this.seats.asOfNow(found.rows) };
  }

  /** Frees the seat of one of the caller's devices, so the license can move to another server. */
  async deactivateOwn(id: number, user: AuthUser): Promise<DeviceWithLicense> {
    const device = await this.own(id, user);
    if (device.deactivated_at === null) {
      await emitAwaited(this.events, DEVICE_DEACTIVATING, { licenseKey: device.license.license_key, serverUid: device.server_uid });
      await this.seats.release(device);
    }
    return this.devices.getWithLicense(id);
  }

  /** Names one of the caller's devices (empty: named by its server, or after its host, again). */
  async renameOwn(id: number, user: AuthUser, name: string): Promise<DeviceWithLicense> {
    await this.own(id, user);
    await this.devices.rename(id, name || null);
    this.seats.written();
    return this.devices.getWithLicense(id);
  }

  /** One of the caller's devices; another's is as unknown as one that does not exist. */
  private async own(id: number, user: AuthUser): Promise<DeviceWithLicense> {
    const device = await this.devices.findWithLicense(id);
    if (!device || device.license?.user_id !== user.id) throw ApiError.notFound('Device not found');
    return device as DeviceWithLicense;
  }
}
