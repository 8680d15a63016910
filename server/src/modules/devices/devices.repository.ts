import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, IsNull, LessThan, Not, Repository } from 'typeorm';
import type { ListTotals } from '../../common/list-totals';
import { Page } from '../../common/pagination';
import { isUniqueViolation } from '../../database/driver-errors';
import DataLoader from 'dataloader';
import { GroupCommit } from '../../database/group-commit';
import { OffLoopReads } from '../../database/off-loop-reads';
import { engineOf, readPage, readPageByIds, sortColumn, startsWith } from '../../database/pages';
import { PreparedSql } from '../../database/prepared-sql';
import { JOINABLE_LICENSES, keyPrefixes, readJoinedLicense } from '../licenses/licenses.repository';
import type { LicenseEntity } from '../licenses/licenses.service';
import { JOINABLE_USERS } from '../users/users.repository';
import type { Channel } from '../../common/channels';
import { DeviceEntity } from './device.entity';
import { DeviceSortKey, ListAdminDevicesQueryDto } from './dto/device.dto';
import { EntityRows } from '../../database/entity-rows';

export type DeviceWithLicense = DeviceEntity & { license: LicenseEntity };
export type DevicePage = Page<DeviceWithLicense>;

export type DeviceDetails = Pick<DeviceEntity, 'device_name' | 'hostname' | 'product' | 'version' | 'os' | 'arch' | 'last_ip'>;

/** A heartbeat to store: the device's activity time, and its details when they changed. */
export interface Heartbeat {
  id: number;
  at: Date;
  details: DeviceDetails | null;
}

const L = JOINABLE_LICENSES;
const U = JOINABLE_USERS;

const SORT_COLUMNS: Record<DeviceSortKey, string> = {
  activated_at: 'd.activated_at',
  last_activity_at: 'd.last_activity_at',
  server_uid: 'd.server_uid',
  device_name: 'd.device_name',
};

/** Devices a search finds at most of each kind (server_uid, hostname, name, owner e-mail, key). */
const SEARCH_MATCHES = 2000;

const LOOKUP_COLUMNS =
  `SELECT ${L.columns}, ` +
  'd.id AS d_id, d.device_name AS d_device_name, d.hostname AS d_hostname, d.product AS d_product, d.version AS d_version, ' +
  'd.os AS d_os, d.arch AS d_arch, ' +
  'd.status AS d_status, d.activated_at AS d_activated_at, d.last_activity_at AS d_last_activity_at, ' +
  `d.deactivated_at AS d_deactivated_at, d.last_ip AS d_last_ip, d.server_uid AS d_server_uid, ${U.channel} AS u_channel `;

/** The owner, by primary key: their channel widens what the license covers. */
const OWNER_JOIN = `LEFT JOIN ${U.table} ON ${U.id} = l.user_id `;

/** The license of a key, its owner and the device of a server on it, in one statement over the unique indexes. */
const LOOKUP_SQL =
  LOOKUP_COLUMNS + `FROM ${L.table} ${OWNER_JOIN}LEFT JOIN devices d ON d.license_id = ${L.id} AND d.server_uid = ? WHERE ${L.key} = ?`;

/** Sizes the key and server lists of a batched lookup are padded to, so a connection prepares few statements. */
const LOOKUP_LIST_SIZES = [1, 2, 4, 8, 16, 32, 64];

/** The licenses of many keys with their devices of many servers, in one statement (MySQL's batched lookup). */
function batchLookupSql(keys: number, uids: number): string {
  const list = (count: number) => Array.from({ length: count }, () => '?').join(', ');
  return (
    LOOKUP_COLUMNS +
    `FROM ${L.table} ${OWNER_JOIN}LEFT JOIN devices d ON d.license_id = ${L.id} AND d.server_uid IN (${list(uids)}) ` +
    `WHERE ${L.key} IN (${list(keys)})`
  );
}

/** What the activation API reads of a key and a server in one statement. */
export interface ActivationLookup {
  /** Partly filled: the fields the activation API uses. */
  license: LicenseEntity | null;
  device: DeviceEntity | null;
  /** The license owner's channel (null: no account). */
  ownerChannel: Channel | null;
}

/** The activation API's hot path uses prepared statements on the driver: building TypeORM queries would cost more than running them. */
@Injectable()
export class DevicesRepository implements BeforeApplicationShutdown {
  private readonly sql: PreparedSql;
  /** Lookups of concurrent activation calls, one round trip for many (MySQL; SQLite answers in-process). */
  private readonly lookups = new DataLoader<[string, string], Record<string, unknown> | undefined>((pairs) => this.lookupMany([...pairs]), {
    cache: false,
    maxBatchSize: 64,
    // After the current I/O callbacks, so requests that arrived together share one read.
    batchScheduleFn: (run) => setImmediate(run),
  });
  private readonly heartbeats = new GroupCommit<Heartbeat>((beats) => this.writeHeartbeats(beats));

  constructor(@InjectRepository(DeviceEntity) private readonly devices: Repository<DeviceEntity>) {
    this.sql = PreparedSql.for(devices.manager.connection);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.heartbeats.drain();
  }

  find(licenseId: number, serverUid: string): Promise<DeviceEntity | null> {
    return this.devices.findOneBy({ license_id: licenseId, server_uid: serverUid });
  }

  /** One that must exist (it was just written). */
  get(id: number): Promise<DeviceEntity> {
    return this.devices.findOneByOrFail({ id });
  }

  /** The device of a server on a license, which must exist (it was just written). */
  getOf(licenseId: number, serverUid: string): Promise<DeviceEntity> {
    return this.devices.findOneByOrFail({ license_id: licenseId, server_uid: serverUid });
  }

  findWithLicense(id: number): Promise<DeviceEntity | null> {
    return this.devices.findOne({ where: { id }, relations: { license: true } });
  }

  async getWithLicense(id: number): Promise<DeviceWithLicense> {
    return (await this.devices.findOneOrFail({ where: { id }, relations: { license: true } })) as DeviceWithLicense;
  }

  /** The name its owner gives it (null: named by its server, or after its host, again). */
  async rename(id: number, customName: string | null): Promise<void> {
    await this.devices.update({ id }, { custom_name: customName });
  }

  ofLicense(licenseId: number): Promise<DeviceEntity[]> {
    return this.devices.find({ where: { license_id: licenseId }, order: { activated_at: 'DESC', id: 'DESC' } });
  }

  async insert(device: Partial<DeviceEntity>): Promise<void> {
    await this.devices.insert(device);
  }

  /** A new device; false when the license already has one of this server (another request's, a moment ago). */
  async insertUnlessTaken(device: Partial<DeviceEntity>): Promise<boolean> {
    try {
      await this.insert(device);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(id: number, changes: Partial<DeviceEntity>): Promise<void> {
    await this.devices.update({ id }, changes);
  }

  /** Takes a deactivated device back into use; false when another request did so a moment ago. */
  async reactivate(id: number, changes: Partial<DeviceEntity>): Promise<boolean> {
    const { affected } = await this.devices.update({ id, deactivated_at: Not(IsNull()) }, { ...changes, deactivated_at: null });
    return affected === 1;
  }

  /** Deactivates a device; true only for the request that flipped deactivated_at. */
  async deactivate(id: number): Promise<boolean> {
    return (await this.deactivateWhere({ id })) === 1;
  }

  deactivateAllOfLicense(licenseId: number): Promise<number> {
    return this.deactivateWhere({ license_id: licenseId });
  }

  private async deactivateWhere(where: FindOptionsWhere<DeviceEntity>): Promise<number> {
    const { affected } = await this.devices.update(
      { ...where, deactivated_at: IsNull() },
      { status: 'inactive', deactivated_at: new Date() },
    );
    return affected ?? 0;
  }

  async markSilentInactive(cutoff: Date): Promise<number> {
    const { affected } = await this.devices.update({ status: 'active', last_activity_at: LessThan(cutoff) }, { status: 'inactive' });
    return affected ?? 0;
  }

  async pageForUser(userId: number, page: number, limit: number): Promise<DevicePage> {
    const qb = this.devices.createQueryBuilder('d').innerJoinAndSelect('d.license', 'l').where('l.user_id = :userId', { userId });
    return (await readPage(qb, { page, limit }, { by: 'd.activated_at', id: 'd.id' })) as DevicePage;
  }

  /** Every sort and filter has an index; status is as of `cutoff` (an active device silent since counts as inactive). */
  async pageForAdmin(query: ListAdminDevicesQueryDto, cutoff: Date, totals: ListTotals, known?: number): Promise<DevicePage> {
    const qb = this.devices.createQueryBuilder('d');
    const term = query.search?.trim();
    if (term) {
      const ids = await this.searchIds(term, engineOf(qb));
      if (ids.length) qb.andWhere('d.id IN (:...searchIds)', { searchIds: ids });
      else qb.andWhere('1 = 0');
    }
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
    const key = JSON.stringify([term ?? '', query.status ?? '']);
    return (await readPageByIds(
      qb,
      query,
      { by: sortColumn(SORT_COLUMNS, query.sort, 'activated_at'), id: 'd.id', fixed: ['d.activated_at'] },
      { cache: totals, key, count, known },
      (ids) => EntityRows.of(this.devices).byIdsWith(ids, 'license'),
    )) as DevicePage;
  }

  /** Each kind of match by its own index range: an OR of them would have MariaDB read every device. */
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

  /** Servers that report this release and have not gone silent since `cutoff` (over IDX_devices_version_status). */
  countReporting(version: string, cutoff: Date): Promise<number> {
    return this.devices
      .createQueryBuilder('d')
      .where("d.version = :version AND d.status = 'active'", { version })
      .andWhere('(d.last_activity_at IS NULL OR d.last_activity_at >= :cutoff)', { cutoff })
      .getCount();
  }

  /** Aggregates over every device: off the event loop on SQLite (OffLoopReads), as are the other figures. */
  async countByStatus(cutoff: Date): Promise<Array<{ status: string; holding: boolean; count: number }>> {
    const status = "CASE WHEN d.status = 'active' AND d.last_activity_at < :cutoff THEN 'inactive' ELSE d.status END";
    const holding = 'CASE WHEN d.deactivated_at IS NULL THEN 1 ELSE 0 END';
    const rows = await this.reads().rows<{ status: string; holding: string | number; count: string | number }>(
      this.devices
        .createQueryBuilder('d')
        .select(status, 'status')
        .addSelect(holding, 'holding')
        .addSelect('COUNT(*)', 'count')
        .setParameters({ cutoff })
        .groupBy(status)
        .addGroupBy(holding),
    );
    return rows.map((row) => ({ status: row.status, holding: Number(row.holding) === 1, count: Number(row.count) }));
  }

  countReportedSince(since: Date): Promise<number> {
    return this.reads().count(this.devices.createQueryBuilder('d').where('d.last_activity_at >= :since', { since }));
  }

  /** Seat-holding devices per reported version ('unknown' when none), most first. */
  async countByVersion(limit: number): Promise<Array<{ name: string; count: number }>> {
    const rows = await this.reads().rows<{ name: string; count: string | number }>(
      this.devices
        .createQueryBuilder('d')
        .select("COALESCE(d.version, 'unknown')", 'name')
        .addSelect('COUNT(*)', 'count')
        .where('d.deactivated_at IS NULL')
        .groupBy("COALESCE(d.version, 'unknown')")
        .orderBy('count', 'DESC')
        .limit(limit),
    );
    return rows.map((row) => ({ name: row.name, count: Number(row.count) }));
  }

  async after(afterId: number, limit: number, onlySeatHolders: boolean): Promise<DeviceWithLicense[]> {
    const rows = await this.devices
      .createQueryBuilder('d')
      .innerJoinAndSelect('d.license', 'l')
      .where(`d.id > :afterId${onlySeatHolders ? ' AND d.deactivated_at IS NULL' : ''}`, { afterId })
      .orderBy('d.id', 'ASC')
      .take(limit)
      .getMany();
    return rows as DeviceWithLicense[];
  }

  /** Devices holding a seat: off the event loop on SQLite. */
  countSeatHolders(): Promise<number> {
    return this.reads().count(this.devices.createQueryBuilder('d').where('d.deactivated_at IS NULL'));
  }

  private reads(): OffLoopReads {
    return OffLoopReads.for(this.devices.manager.connection);
  }

  async lookup(licenseKey: string, serverUid: string): Promise<ActivationLookup> {
    const row =
      this.sql.engine === 'sqlite'
        ? await this.sql.one<Record<string, unknown>>(LOOKUP_SQL, [serverUid, licenseKey])
        : await this.lookups.load([serverUid, licenseKey]);
    if (!row) return { license: null, device: null, ownerChannel: null };
    const license = readJoinedLicense(row, (value) => this.sql.readDate(value));
    const ownerChannel = (row.u_channel as Channel | null) ?? null;
    if (row.d_id === null || row.d_id === undefined) return { license, device: null, ownerChannel };
    const device = Object.assign(new DeviceEntity(), {
      id: Number(row.d_id),
      license_id: license.id,
      server_uid: serverUid,
      device_name: row.d_device_name as string | null,
      hostname: row.d_hostname as string | null,
      product: row.d_product as string | null,
      version: row.d_version as string | null,
      os: row.d_os as DeviceEntity['os'],
      arch: row.d_arch as DeviceEntity['arch'],
      status: row.d_status as DeviceEntity['status'],
      activated_at: this.sql.readDate(row.d_activated_at)!,
      last_activity_at: this.sql.readDate(row.d_last_activity_at),
      deactivated_at: this.sql.readDate(row.d_deactivated_at),
      last_ip: row.d_last_ip as string | null,
    });
    return { license, device, ownerChannel };
  }

  /** Stores a heartbeat with others that arrive meanwhile; resolves once it is written. */
  recordHeartbeat(beat: Heartbeat): Promise<void> {
    return this.heartbeats.add(beat);
  }

  /**
   * Matches rows back to (server, key) pairs as the collation would: server ids (`._:-`, letters, digits) case-blind; keys
   * exactly in capitals, so a key with accents matches nothing here, as on SQLite.
   */
  private async lookupMany(pairs: Array<[string, string]>): Promise<Array<Record<string, unknown> | undefined>> {
    const padded = (values: string[]) => {
      const size = LOOKUP_LIST_SIZES.find((candidate) => candidate >= values.length) ?? values.length;
      return [...values, ...Array.from({ length: size - values.length }, () => '')];
    };
    const uids = padded([...new Set(pairs.map(([uid]) => uid.toLowerCase()))]);
    const keys = padded([...new Set(pairs.map(([, key]) => key.toUpperCase()))]);
    const rows = await this.sql.all<Record<string, unknown>>(batchLookupSql(keys.length, uids.length), [...uids, ...keys]);
    const licenses = new Map<string, Record<string, unknown>>();
    const devices = new Map<string, Record<string, unknown>>();
    for (const row of rows) {
      const key = String(row.l_license_key).toUpperCase();
      if (!licenses.has(key)) licenses.set(key, { ...row, d_id: null });
      if (row.d_id !== null) devices.set(`${String(row.d_server_uid).toLowerCase()} ${key}`, row);
    }
    return pairs.map(([uid, key]) => devices.get(`${uid.toLowerCase()} ${key.toUpperCase()}`) ?? licenses.get(key.toUpperCase()));
  }

  /** A device whose seat was released after its heartbeat was answered stays released (not 'active' again with no seat). */
  private async writeHeartbeats(beats: Heartbeat[]): Promise<void> {
    const at = new Date(Math.max(...beats.map((beat) => beat.at.getTime())));
    const ids = [...new Set(beats.map((beat) => beat.id))];
    if (this.sql.engine === 'sqlite') {
      await this.sql.runEach(
        "UPDATE devices SET last_activity_at = ?, status = 'active', updated_at = ? WHERE id = ? AND deactivated_at IS NULL",
        ids.map((id) => [at, at, id]),
      );
    } else {
      await this.sql.run(
        `UPDATE devices SET last_activity_at = ?, status = 'active', updated_at = ? ` +
          `WHERE id IN (${ids.map(() => '?').join(', ')}) AND deactivated_at IS NULL`,
        [at, at, ...ids],
      );
    }
    const changed = beats.filter((beat) => beat.details);
    if (changed.length) {
      await this.sql.runEach(
        'UPDATE devices SET device_name = ?, hostname = ?, product = ?, version = ?, os = ?, arch = ?, last_ip = ? WHERE id = ?',
        changed.map(({ id, details: d }) => [d!.device_name, d!.hostname, d!.product, d!.version, d!.os, d!.arch, d!.last_ip, id]),
      );
    }
  }
}
