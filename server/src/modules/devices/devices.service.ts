import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { DEVICE_DEACTIVATING, emitAwaited, LICENSE_REVOKED, type LicenseRevokedEvent, OnAwaitedEvent } from '../../common/events';
import { OffLoopReads } from '../../database/off-loop-reads';
import { Page, sortColumn } from '../../common/pagination';
import { engineOf, readPage, readPageByIds, startsWith } from '../../database/pages';
import { ListTotals } from '../../common/list-totals';
import { Cache } from '../../common/cache';
import { turnAfter } from '../../common/turns';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { LicenseEntity } from '../licenses/licenses.service';
import { effectiveStatus, LicensesService } from '../licenses/licenses.service';
import { keyPrefixes, normalizeLicenseKey } from '../licenses/licenses.service';
import { DeviceEntity } from './device.entity';
import { DeviceDetails, DevicesRepository } from './devices.repository';
import { DeviceSortKey, DeviceStatsDto, ListAdminDevicesQueryDto } from './dto/device.dto';
import { MAX_LENGTH } from '../../database/column-lengths';
import { extended } from '../../common/extended';
import { EntityRows } from '../../database/entity-rows';

/** Machine-readable outcome of an activation, validation or deactivation. */
export const ACTIVATION_CODES = [
  'VALID',
  'DEACTIVATED',
  'EXPIRED',
  'REVOKED',
  'PENDING',
  'TOO_MANY_DEVICES',
  'NOT_FOUND',
  'NOT_ACTIVATED',
] as const;
export type ActivationCode = (typeof ACTIVATION_CODES)[number];

/** What a streaming server says about itself. */
export interface DeviceIdentity {
  server_uid: string;
  device_name?: string | null;
  hostname?: string | null;
  product?: string | null;
  version?: string | null;
  ip?: string | null;
}

export interface SeatOutcome {
  code: ActivationCode;
  license: LicenseEntity;
  device: DeviceEntity | null;
}

export type DeviceWithLicense = DeviceEntity & { license: LicenseEntity };

/** A device as portals exchange it when syncing with a license server. */
export type SyncedDevice = Pick<
  DeviceEntity,
  | 'id'
  | 'server_uid'
  | 'device_name'
  | 'hostname'
  | 'product'
  | 'version'
  | 'status'
  | 'activated_at'
  | 'last_activity_at'
  | 'deactivated_at'
> & { license_key: string };

export type DevicePage = Page<DeviceWithLicense>;

/** Why a license cannot be used right now, or null when it can. */
export function refusalOf(license: LicenseEntity, now = Date.now()): ActivationCode | null {
  switch (effectiveStatus(license, now)) {
    case 'active':
      return null;
    case 'revoked':
      return 'REVOKED';
    case 'pending':
      return 'PENDING';
    default:
      return 'EXPIRED';
  }
}

const SORT_COLUMNS: Record<DeviceSortKey, string> = {
  activated_at: 'd.activated_at',
  last_activity_at: 'd.last_activity_at',
  server_uid: 'd.server_uid',
  device_name: 'd.device_name',
};

/** Devices a search finds at most of each kind (server_uid, hostname, name, owner e-mail, key). */
const SEARCH_MATCHES = 2000;

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
    last_ip: pick(identity.ip, MAX_LENGTH.ip, stored?.last_ip),
  };
}

/**
 * Devices and their seats. A device holds a seat while deactivated_at is null; seats are counted in
 * licenses.current_activations, taken with one conditional UPDATE and given back when a device is deactivated.
 */
@Injectable()
export class DevicesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Devices');
  /** The activation in progress per license and server, to take same-server calls one at a time. */
  private readonly activating = new Map<string, Promise<void>>();

  constructor(
    @InjectRepository(DeviceEntity) private readonly devices: Repository<DeviceEntity>,
    private readonly licenses: LicensesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: EventEmitter2,
    private readonly hotPath: DevicesRepository,
  ) {}

  /** The admin list's totals and the stats; dropped when a device is added, released or marked here. */
  private readonly totals = new ListTotals();
  private readonly figures = new Cache<DeviceStatsDto>({ max: 16, ttlMs: 60_000, staleWhileRevalidate: true });

  private changed(): void {
    this.totals.clear();
    this.figures.clear();
  }

  /** Counts the stats once at start, in the background, so the first admin to open them does not wait for the count. */
  onApplicationBootstrap(): void {
    setTimeout(() => void this.stats().catch(() => undefined), 0);
  }

  // ---- the activation API ----------------------------------------------------------------------

  /**
   * Activates a server on a license. The same server_uid again takes no new seat; a new one needs a free seat.
   * Calls for the same server are taken one at a time in this process, so a server that retries at once is not
   * refused for the seat its own first call holds.
   */
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
    const existing = await this.devices.findOneBy({ license_id: license.id, server_uid: identity.server_uid });
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
      const again = await this.devices.findOneBy({ license_id: license.id, server_uid: identity.server_uid });
      if (again && again.deactivated_at === null && !refusalOf(current)) return this.refresh(current, again, identity);
      return { code: refusalOf(current) ?? 'TOO_MANY_DEVICES', license: current, device: existing };
    }
    const now = new Date();
    if (existing) {
      const reactivated = await this.devices
        .createQueryBuilder()
        .update()
        .set({ ...details(identity, existing), status: 'active', activated_at: now, last_activity_at: now, deactivated_at: null })
        .where('id = :id AND deactivated_at IS NOT NULL', { id: existing.id })
        .execute();
      // Another request reactivated it a moment ago and holds the seat for it: give ours back.
      if (reactivated.affected !== 1) await this.licenses.releaseSeats(license.id, 1);
    } else {
      try {
        await this.devices.insert({
          license_id: license.id,
          server_uid: identity.server_uid,
          ...details(identity),
          status: 'active',
          activated_at: now,
          last_activity_at: now,
          deactivated_at: null,
        });
      } catch (error) {
        await this.licenses.releaseSeats(license.id, 1);
        // The same server activated twice at once (from another instance): the other request's row holds the seat.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    this.changed();
    const device = await this.devices.findOneByOrFail({ license_id: license.id, server_uid: identity.server_uid });
    return { code: 'VALID', license: (await this.licenses.findById(license.id)) ?? license, device };
  }

  /** An already activated server activates again: no new seat, its details and activity are refreshed. */
  private async refresh(license: LicenseEntity, device: DeviceEntity, identity: DeviceIdentity): Promise<SeatOutcome> {
    await this.devices.update({ id: device.id }, { ...details(identity, device), status: 'active', last_activity_at: new Date() });
    return { code: 'VALID', license, device: await this.devices.findOneByOrFail({ id: device.id }) };
  }

  /**
   * A heartbeat: VALID while the license is usable and this server holds a seat on it. The hot path of the
   * activation API: license and device come from `lookup`, and the last-activity update is group-committed
   * with other heartbeats; `written` settles when it is stored.
   */
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
    const written = this.hotPath.recordHeartbeat({ id: device.id, at: now, details: changed ? next : null });
    return { code: 'VALID', license, device: { ...device, ...next, status: 'active', last_activity_at: now }, written };
  }

  /** The server gives its seat back (allowed whatever the license's state). */
  async deactivate(license: LicenseEntity, serverUid: string): Promise<SeatOutcome> {
    const device = await this.devices.findOneBy({ license_id: license.id, server_uid: serverUid });
    if (!device || device.deactivated_at !== null) return { code: 'NOT_ACTIVATED', license, device };
    await this.release(device);
    return {
      code: 'DEACTIVATED',
      license: (await this.licenses.findById(license.id)) ?? license,
      device: await this.devices.findOneByOrFail({ id: device.id }),
    };
  }

  // ---- customers and admins --------------------------------------------------------------------

  /** Devices on the caller's licenses, newest activation first. */
  async listForUser(user: AuthUser, page: number, limit: number): Promise<DevicePage> {
    const qb = this.devices.createQueryBuilder('d').innerJoinAndSelect('d.license', 'l').where('l.user_id = :userId', { userId: user.id });
    return this.asOfNow((await readPage(qb, { page, limit }, { by: 'd.activated_at', id: 'd.id' })) as DevicePage);
  }

  /**
   * Devices as of now: an active one that has not reported for DEVICE_INACTIVE_AFTER_SECONDS shows as inactive,
   * whether or not the inactivity job has stored that yet (reads never write it).
   */
  private asOfNow<P extends { rows: DeviceEntity[] }>(found: P): P {
    const cutoff = this.silentCutoff().getTime();
    for (const device of found.rows) {
      if (device.status === 'active' && device.last_activity_at !== null && device.last_activity_at.getTime() < cutoff)
        device.status = 'inactive';
    }
    return found;
  }

  /**
   * The devices a search finds, each kind by its own index range (an OR of them would have MariaDB read every
   * device): server_uid, hostname or device name starting with the term, and the devices of licenses whose owner
   * e-mail or key (any case, hyphens or not) starts with it; at most SEARCH_MATCHES of each kind.
   */
  private async searchIds(term: string, engine: 'sqlite' | 'mysql'): Promise<number[]> {
    const firstIds = async (table: 'devices' | 'licenses', [where, params]: [string, Record<string, unknown>]) => {
      const alias = table === 'devices' ? 'd' : 'l';
      const rows = await this.devices.manager
        .createQueryBuilder()
        .select(`${alias}.id`, 'id')
        .from(table, alias)
        .where(where, params)
        .limit(SEARCH_MATCHES)
        .getRawMany<{ id: number | string }>();
      return rows.map((row) => Number(row.id));
    };
    const licenseIds = (
      await Promise.all([
        firstIds('licenses', startsWith(engine, 'l.user_email', 'email', term.toLowerCase())),
        ...keyPrefixes(term).map((key) => firstIds('licenses', startsWith(engine, 'l.license_key_compact', 'key', key))),
      ])
    ).flat();
    const found = await Promise.all([
      licenseIds.length ? firstIds('devices', ['d.license_id IN (:...licenseIds)', { licenseIds }]) : [],
      ...(term.includes('@')
        ? []
        : [
            firstIds('devices', startsWith(engine, 'd.server_uid', 'uid', term)),
            firstIds('devices', startsWith(engine, 'd.hostname', 'host', term)),
            firstIds('devices', startsWith(engine, 'd.device_name', 'name', term)),
          ]),
    ]);
    return [...new Set(found.flat())];
  }

  private silentCutoff(): Date {
    return new Date(Date.now() - this.config.licensing.deviceInactiveAfterSeconds * 1000);
  }

  /** Frees the seat of one of the caller's devices, so the license can move to another server. */
  async deactivateOwn(id: number, user: AuthUser): Promise<DeviceWithLicense> {
    const device = await this.devices.findOne({ where: { id }, relations: { license: true } });
    if (!device || device.license?.user_id !== user.id) throw ApiError.notFound('Device not found');
    if (device.deactivated_at === null) {
      await emitAwaited(this.events, DEVICE_DEACTIVATING, { licenseKey: device.license!.license_key, serverUid: device.server_uid });
      await this.release(device);
    }
    return (await this.devices.findOneOrFail({ where: { id }, relations: { license: true } })) as DeviceWithLicense;
  }

  /**
   * The admin list: every sort and filter has an index; the status is as of now (see asOfNow); the search goes by
   * what the term looks like, each a prefix on an index: a key (any case, hyphens or not) on the license's compact
   * key, an e-mail on the owner's, other text on server_uid, hostname or device name.
   */
  async list(query: ListAdminDevicesQueryDto): Promise<DevicePage> {
    const qb = this.devices.createQueryBuilder('d');
    const engine = engineOf(qb);
    const term = query.search?.trim();
    if (term) {
      const ids = await this.searchIds(term, engine);
      if (ids.length) qb.andWhere('d.id IN (:...searchIds)', { searchIds: ids });
      else qb.andWhere('1 = 0');
    }
    const cutoff = this.silentCutoff();
    // The count reads ranges of (status, last_activity_at), at most EXACT_TOTAL_CAP + 1 entries.
    const count = qb.clone();
    if (query.status === 'active')
      count.andWhere("d.status = 'active' AND (d.last_activity_at IS NULL OR d.last_activity_at >= :cutoff)", { cutoff });
    else if (query.status === 'inactive')
      count.andWhere("(d.status = 'inactive' OR (d.status = 'active' AND d.last_activity_at < :cutoff))", { cutoff });
    else if (query.status) count.andWhere('d.status = :status', { status: query.status });
    // COALESCE(x, x) is x, but no index range: the list reads (status, activated_at) or activated_at in order and
    // checks the rest on the way, instead of sorting every device of a range (as whereStatus of licenses).
    const silent = 'COALESCE(d.last_activity_at, d.last_activity_at) < :cutoff';
    if (query.status === 'active') qb.andWhere(`d.status = 'active' AND NOT COALESCE(${silent}, 0)`, { cutoff });
    else if (query.status === 'inactive')
      qb.andWhere(`(COALESCE(d.status, d.status) = 'inactive' OR (COALESCE(d.status, d.status) = 'active' AND ${silent}))`, { cutoff });
    else if (query.status) qb.andWhere('d.status = :status', { status: query.status });
    const by = sortColumn(SORT_COLUMNS, query.sort, 'activated_at');
    const key = JSON.stringify([term ?? '', query.status ?? '']);
    // Unsearched, the total of a status (or of all) is in the stats, which are kept anyway: no count of its own.
    // (Unless they are still being counted, just after a start or a change: then the list counts as searched ones do.)
    void this.stats().catch(() => undefined);
    const stats = term ? undefined : this.figures.peek('stats');
    const known = stats ? (query.status ? stats[query.status] : stats.total) : undefined;
    const found = await readPageByIds(
      qb,
      query,
      { by, id: 'd.id', fixed: ['d.activated_at'] },
      { cache: this.totals, key, count, known },
      (ids) => EntityRows.of(this.devices).byIdsWith(ids, 'license'),
    );
    return this.asOfNow(found as DevicePage);
  }

  async forLicenseKey(key: string): Promise<{ license: LicenseEntity; devices: DeviceWithLicense[] }> {
    const license = await this.licenses.findByKey(key);
    if (!license) throw ApiError.notFound('License not found');
    const devices = await this.devices.find({ where: { license_id: license.id }, order: { activated_at: 'DESC', id: 'DESC' } });
    this.asOfNow({ rows: devices });
    return { license, devices: devices.map((device) => Object.assign(device, { license })) };
  }

  /** Admin: deactivates the device {license_key, server_uid}. */
  async adminDeactivate(licenseKey: string, serverUid: string): Promise<DeviceWithLicense> {
    const license = await this.licenses.findByKey(normalizeLicenseKey(licenseKey));
    if (!license) throw ApiError.notFound('License not found');
    const device = await this.devices.findOneBy({ license_id: license.id, server_uid: serverUid });
    if (!device) throw ApiError.notFound('No device with this server_uid on this license');
    if (device.deactivated_at === null) {
      await emitAwaited(this.events, DEVICE_DEACTIVATING, { licenseKey: license.license_key, serverUid });
      await this.release(device);
    }
    return Object.assign(await this.devices.findOneByOrFail({ id: device.id }), {
      license: (await this.licenses.findById(license.id)) ?? license,
    });
  }

  /** Kept for a minute and recounted in the background (KeptFigures); an activation or deactivation here counts anew. */
  stats(): Promise<DeviceStatsDto> {
    return this.figures.get('stats', () => this.countStats());
  }

  private async countStats(): Promise<DeviceStatsDto> {
    const cutoff = this.silentCutoff();
    // Aggregates over every device: off the event loop on SQLite (OffLoopReads).
    const reads = OffLoopReads.for(this.devices.manager.connection);
    const rows = await reads.rows<{ status: string; holding: string | number; count: string | number }>(
      this.devices
        .createQueryBuilder('d')
        .select("CASE WHEN d.status = 'active' AND d.last_activity_at < :cutoff THEN 'inactive' ELSE d.status END", 'status')
        .addSelect('CASE WHEN d.deactivated_at IS NULL THEN 1 ELSE 0 END', 'holding')
        .addSelect('COUNT(*)', 'count')
        .setParameters({ cutoff })
        .groupBy("CASE WHEN d.status = 'active' AND d.last_activity_at < :cutoff THEN 'inactive' ELSE d.status END")
        .addGroupBy('CASE WHEN d.deactivated_at IS NULL THEN 1 ELSE 0 END'),
    );
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
    for (const row of rows) {
      const count = Number(row.count);
      stats.total += count;
      if (row.status === 'active' || row.status === 'inactive' || row.status === 'failed') stats[row.status] += count;
      if (Number(row.holding) === 1) stats.holding_seats += count;
      else stats.deactivated += count;
    }
    stats.reported_last_24h = await reads.count(
      this.devices.createQueryBuilder('d').where('d.last_activity_at >= :since', { since: new Date(Date.now() - 24 * 3600 * 1000) }),
    );
    const versions = await reads.rows<{ name: string; count: string | number }>(
      this.devices
        .createQueryBuilder('d')
        .select("COALESCE(d.version, 'unknown')", 'name')
        .addSelect('COUNT(*)', 'count')
        .where('d.deactivated_at IS NULL')
        .groupBy("COALESCE(d.version, 'unknown')")
        .orderBy('count', 'DESC')
        .limit(20),
    );
    stats.by_version = versions.map((row) => ({ name: row.name, count: Number(row.count) }));
    return stats;
  }

  // ---- syncing with a license server -----------------------------------------------------------

  /** This server's devices after `afterId`, by id, with their license keys (for a portal that syncs from this one). */
  async listForSync(afterId: number, limit: number): Promise<SyncedDevice[]> {
    const rows = await this.devices
      .createQueryBuilder('d')
      .innerJoinAndSelect('d.license', 'l')
      .where('d.id > :afterId', { afterId })
      .orderBy('d.id', 'ASC')
      .take(limit)
      .getMany();
    return rows.map((device) => extended(syncedDeviceFields(device), { license_key: device.license!.license_key }));
  }

  /** Devices holding a seat after `afterId`, by id, with their license keys (a full sync pushes them). */
  async seatHoldersAfter(afterId: number, limit: number): Promise<SyncedDevice[]> {
    const rows = await this.devices
      .createQueryBuilder('d')
      .innerJoinAndSelect('d.license', 'l')
      .where('d.id > :afterId AND d.deactivated_at IS NULL', { afterId })
      .orderBy('d.id', 'ASC')
      .take(limit)
      .getMany();
    return rows.map((device) => extended(syncedDeviceFields(device), { license_key: device.license!.license_key }));
  }

  /** Devices holding a seat (a full sync's total): off the event loop on SQLite, where a million rows take tens of ms. */
  countSeatHolders(): Promise<number> {
    return OffLoopReads.for(this.devices.manager.connection).count(this.devices.createQueryBuilder('d').where('d.deactivated_at IS NULL'));
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
      await turnAfter(i);
      const license = await this.licenses.findByKey(license_key);
      if (!license) {
        counts.refused++;
        continue;
      }
      if (await this.devices.existsBy({ license_id: license.id, server_uid: fields.server_uid })) {
        counts.unchanged++;
        continue;
      }
      if (!(await this.licenses.takeSeat(license.id))) {
        counts.refused++;
        continue;
      }
      try {
        await this.devices.insert({ ...fields, license_id: license.id, deactivated_at: null });
        counts.created++;
      } catch (error) {
        await this.licenses.releaseSeats(license.id, 1);
        // The same server activated here a moment ago: its own activation holds the seat.
        if (!isUniqueViolation(error)) throw error;
        counts.unchanged++;
      }
    }
    this.changed();
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
      await turnAfter(i);
      if (!licenseIds.has(license_key)) licenseIds.set(license_key, (await this.licenses.findByKey(license_key))?.id ?? null);
      const licenseId = licenseIds.get(license_key);
      if (!licenseId) continue;
      const local = await this.devices.findOneBy({ license_id: licenseId, server_uid: fields.server_uid });
      if (!local) {
        await this.devices.insert({ ...fields, license_id: licenseId });
        changed++;
      } else if (differs(local, fields)) {
        await this.devices.update({ id: local.id }, fields);
        changed++;
      }
    }
    if (changed) this.changed();
    return changed;
  }

  /** Deactivates a device for a portal that syncs from this one; false when there is no such device. */
  async deactivateForPortal(licenseKey: string, serverUid: string): Promise<boolean> {
    const license = await this.licenses.findByKey(licenseKey);
    const device = license && (await this.devices.findOneBy({ license_id: license.id, server_uid: serverUid }));
    if (!device) return false;
    if (device.deactivated_at === null) await this.release(device);
    return true;
  }

  // ---- seats and housekeeping ------------------------------------------------------------------

  /** A revoked license (revocation, deletion, a sync) loses its devices. */
  @OnAwaitedEvent(LICENSE_REVOKED)
  onLicenseRevoked({ licenseId }: LicenseRevokedEvent): Promise<number> {
    return this.deactivateAllForLicense(licenseId);
  }

  /** Deactivates every seat-holding device of a license; returns how many. */
  async deactivateAllForLicense(licenseId: number): Promise<number> {
    const result = await this.devices
      .createQueryBuilder()
      .update()
      .set({ status: 'inactive', deactivated_at: new Date() })
      .where('license_id = :licenseId AND deactivated_at IS NULL', { licenseId })
      .execute();
    const count = result.affected ?? 0;
    if (count) this.changed();
    await this.licenses.releaseSeats(licenseId, count);
    return count;
  }

  /** Devices that have not reported for DEVICE_INACTIVE_AFTER_SECONDS become inactive: every minute, and before lists are read. */
  @Cron(CronExpression.EVERY_MINUTE, { name: 'device-inactivity' })
  async markSilentDevicesInactive(): Promise<number> {
    try {
      const result = await this.devices
        .createQueryBuilder()
        .update()
        .set({ status: 'inactive' })
        .where('status = :active AND last_activity_at < :cutoff', {
          active: 'active',
          cutoff: new Date(Date.now() - this.config.licensing.deviceInactiveAfterSeconds * 1000),
        })
        .execute();
      if (result.affected) this.changed();
      return result.affected ?? 0;
    } catch (error) {
      this.logger.error(`Marking silent devices inactive failed: ${(error as Error).message}`);
      return 0;
    }
  }

  /** Deactivates one device; only the request that flips deactivated_at gives the seat back. */
  private async release(device: DeviceEntity): Promise<void> {
    const result = await this.devices
      .createQueryBuilder()
      .update()
      .set({ status: 'inactive', deactivated_at: new Date() })
      .where('id = :id AND deactivated_at IS NULL', { id: device.id })
      .execute();
    this.changed();
    if (result.affected === 1) await this.licenses.releaseSeats(device.license_id, 1);
  }

  private async markFailed(device: DeviceEntity | null): Promise<void> {
    if (device && device.deactivated_at === null && device.status !== 'failed') {
      await this.devices.update({ id: device.id }, { status: 'failed' });
      device.status = 'failed';
    }
  }

  /**
   * The license of a key and this server's device on it, by one prepared statement: the activation API's lookup.
   * The license comes back partly filled (the fields the activation API uses).
   */
  lookup(licenseKey: string, serverUid: string): Promise<{ license: LicenseEntity | null; device: DeviceEntity | null }> {
    return this.hotPath.lookup(licenseKey, serverUid);
  }
}

function syncedDeviceFields(device: DeviceEntity): Omit<SyncedDevice, 'license_key'> {
  const { id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, deactivated_at } = device;
  return { id, server_uid, device_name, hostname, product, version, status, activated_at, last_activity_at, deactivated_at };
}

const time = (date: Date | null) => date?.getTime() ?? null;

/** Whether a stored device differs from what the license server holds. */
function differs(local: DeviceEntity, server: Omit<SyncedDevice, 'license_key' | 'id'>): boolean {
  return (
    (['device_name', 'hostname', 'product', 'version', 'status'] as const).some((key) => local[key] !== server[key]) ||
    (['activated_at', 'last_activity_at', 'deactivated_at'] as const).some((key) => time(local[key]) !== time(server[key]))
  );
}
