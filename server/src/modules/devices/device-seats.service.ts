import { Inject, Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DEVICES_WRITTEN, LICENSE_REVOKED, type LicenseRevokedEvent, notify, OnAwaitedEvent } from '../../common/events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MAX_LENGTH } from '../../database/column-lengths';
import type { LicenseEntity } from '../licenses/licenses.service';
import { effectiveStatus, LicensesService } from '../licenses/licenses.service';
import { DeviceEntity } from './device.entity';
import type { ActivationCode } from './devices.constants';
import { type ActivationLookup, DeviceDetails, DevicesRepository } from './devices.repository';
import type { Architecture, OsType } from '../versions/versions.constants';

/** What a streaming server says about itself. */
export interface DeviceIdentity {
  server_uid: string;
  device_name?: string | null;
  hostname?: string | null;
  product?: string | null;
  version?: string | null;
  os?: OsType | null;
  arch?: Architecture | null;
  ip?: string | null;
}

export interface SeatOutcome {
  code: ActivationCode;
  license: LicenseEntity;
  device: DeviceEntity | null;
}

const REFUSALS = { active: null, revoked: 'REVOKED', pending: 'PENDING', expired: 'EXPIRED' } as const;

/** Why a license cannot be used right now, or null when it can. */
export function refusalOf(license: LicenseEntity, now = Date.now()): ActivationCode | null {
  return REFUSALS[effectiveStatus(license, now)];
}

/** How precisely a device's last activity is kept (heartbeats closer together than this are not written). */
const HEARTBEAT_RESOLUTION_MS = 1000;

/** What the server told about itself this time; a field it left out keeps its stored value. */
function details(identity: DeviceIdentity, stored: DeviceDetails | null = null): DeviceDetails {
  const pick = (value: string | null | undefined, max: number, current: string | null | undefined) =>
    value === undefined ? (current ?? null) : value?.slice(0, max) || null;
  return {
    device_name: pick(identity.device_name, MAX_LENGTH.deviceName, stored?.device_name),
    hostname: pick(identity.hostname, MAX_LENGTH.hostname, stored?.hostname),
    product: pick(identity.product, MAX_LENGTH.productName, stored?.product),
    version: pick(identity.version, MAX_LENGTH.version, stored?.version),
    os: identity.os === undefined ? (stored?.os ?? null) : identity.os,
    arch: identity.arch === undefined ? (stored?.arch ?? null) : identity.arch,
    last_ip: pick(identity.ip, MAX_LENGTH.ip, stored?.last_ip),
  };
}

/** A device holds a seat while deactivated_at is null; seats are counted in licenses.current_activations. */
@Injectable()
export class DeviceSeatsService {
  /** The activation in progress per license and server, to take same-server calls one at a time. */
  private readonly activating = new Map<string, Promise<void>>();

  constructor(
    private readonly devices: DevicesRepository,
    private readonly licenses: LicensesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: EventEmitter2,
  ) {}

  /** Devices were added, released or marked: the admin list's totals and the stats count anew. */
  written(): void {
    notify(this.events, DEVICES_WRITTEN, {});
  }

  /** The license comes back partly filled (the fields the activation API uses), with its owner's channel. */
  lookup(licenseKey: string, serverUid: string): Promise<ActivationLookup> {
    return this.devices.lookup(licenseKey, serverUid);
  }

  /** Same-server calls run one at a time here, so a server that retries at once is not refused for the seat its first call holds. */
  activate(license: LicenseEntity, identity: DeviceIdentity): Promise<SeatOutcome> {
    const key = `${license.id}:${identity.server_uid}`;
    const previous = this.activating.get(key) ?? Promise.resolve();
    const current = previous.then(() => this.activateNow(license, identity));
    const settled = current.then(
      () => undefined,
      () => undefined,
    );
    this.activating.set(key, settled);
    void settled.then(() => {
      if (this.activating.get(key) === settled) this.activating.delete(key);
    });
    return current;
  }

  private async activateNow(license: LicenseEntity, identity: DeviceIdentity): Promise<SeatOutcome> {
    const existing = await this.devices.find(license.id, identity.server_uid);
    const refused = refusalOf(license);
    if (refused) {
      await this.markFailed(existing);
      return { code: refused, license, device: existing };
    }
    if (existing && existing.deactivated_at === null) return this.refresh(license, existing, identity);

    if (!(await this.licenses.takeSeat(license.id))) {
      const current = await this.licenses.findById(license.id);
      if (!current) return { code: 'NOT_FOUND', license, device: null };
      // Another instance may have activated this very server a moment ago.
      const again = await this.devices.find(license.id, identity.server_uid);
      if (again && again.deactivated_at === null && !refusalOf(current)) return this.refresh(current, again, identity);
      return { code: refusalOf(current) ?? 'TOO_MANY_DEVICES', license: current, device: existing };
    }
    const now = new Date();
    const active = { status: 'active', activated_at: now, last_activity_at: now } as const;
    const giveBack = () => this.licenses.releaseSeats(license.id, 1);
    // Another instance's request (re)activated it a moment ago and holds the seat for it: ours goes back.
    const stored = existing
      ? await this.devices.reactivate(existing.id, { ...details(identity, existing), ...active })
      : await this.devices
          .insertUnlessTaken({
            license_id: license.id,
            server_uid: identity.server_uid,
            ...details(identity),
            ...active,
            deactivated_at: null,
          })
          .catch(async (error: unknown) => {
            await giveBack();
            throw error;
          });
    if (!stored) await giveBack();
    this.written();
    const device = await this.devices.getOf(license.id, identity.server_uid);
    return { code: 'VALID', license: (await this.licenses.findById(license.id)) ?? license, device };
  }

  /** An already activated server activates again: no new seat, its details and activity are refreshed. */
  private async refresh(license: LicenseEntity, device: DeviceEntity, identity: DeviceIdentity): Promise<SeatOutcome> {
    await this.devices.update(device.id, { ...details(identity, device), status: 'active', last_activity_at: new Date() });
    return { code: 'VALID', license, device: await this.devices.get(device.id) };
  }

  /** The activation API's hot path: the last-activity update is group-committed; `written` settles when it is stored. */
  async validate(
    license: LicenseEntity,
    identity: DeviceIdentity,
    device: DeviceEntity | null,
  ): Promise<SeatOutcome & { written: Promise<void> }> {
    const refused = refusalOf(license);
    if (refused) {
      await this.markFailed(device);
      return { code: refused, license, device, written: Promise.resolve() };
    }
    if (!device || device.deactivated_at !== null) return { code: 'NOT_ACTIVATED', license, device, written: Promise.resolve() };
    const now = new Date();
    const next = details(identity, device);
    const changed = (Object.keys(next) as Array<keyof typeof next>).some((key) => next[key] !== device[key]);
    // Last activity is kept to the second: a repeated heartbeat within a second of the stored one writes nothing.
    const recent = device.last_activity_at !== null && now.getTime() - device.last_activity_at.getTime() < HEARTBEAT_RESOLUTION_MS;
    if (!changed && recent && device.status === 'active') return { code: 'VALID', license, device, written: Promise.resolve() };
    const written = this.devices.recordHeartbeat({ id: device.id, at: now, details: changed ? next : null });
    return { code: 'VALID', license, device: { ...device, ...next, status: 'active', last_activity_at: now }, written };
  }

  /** The server gives its seat back (allowed whatever the license's state). */
  async deactivate(license: LicenseEntity, serverUid: string): Promise<SeatOutcome> {
    const device = await this.devices.find(license.id, serverUid);
    if (!device || device.deactivated_at !== null) return { code: 'NOT_ACTIVATED', license, device };
    await this.release(device);
    return {
      code: 'DEACTIVATED',
      license: (await this.licenses.findById(license.id)) ?? license,
      device: await this.devices.get(device.id),
    };
  }

  /** Deactivates one device; only the request that flips deactivated_at gives the seat back. */
  async release(device: DeviceEntity): Promise<void> {
    const flipped = await this.devices.deactivate(device.id);
    this.written();
    if (flipped) await this.licenses.releaseSeats(device.license_id, 1);
  }

  /** A revoked license (revocation, deletion, a sync) loses its devices. */
  @OnAwaitedEvent(LICENSE_REVOKED)
  onLicenseRevoked({ licenseId }: LicenseRevokedEvent): Promise<number> {
    return this.deactivateAllForLicense(licenseId);
  }

  async deactivateAllForLicense(licenseId: number): Promise<number> {
    const count = await this.devices.deactivateAllOfLicense(licenseId);
    if (count) this.written();
    await this.licenses.releaseSeats(licenseId, count);
    return count;
  }

  private async markFailed(device: DeviceEntity | null): Promise<void> {
    if (device && device.deactivated_at === null && device.status !== 'failed') {
      await this.devices.update(device.id, { status: 'failed' });
      device.status = 'failed';
    }
  }

  /** When an active device last reporting before this counts as inactive (DEVICE_INACTIVE_AFTER_SECONDS ago). */
  silentCutoff(): Date {
    return new Date(Date.now() - this.config.licensing.deviceInactiveAfterSeconds * 1000);
  }

  /** A silent active device shows as inactive whether or not the inactivity job has stored that yet (reads never write it). */
  asOfNow<D extends DeviceEntity>(devices: D[]): D[] {
    const cutoff = this.silentCutoff().getTime();
    for (const device of devices) {
      if (device.status === 'active' && device.last_activity_at !== null && device.last_activity_at.getTime() < cutoff)
        device.status = 'inactive';
    }
    return devices;
  }
}
