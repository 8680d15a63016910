import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { GroupCommit } from '../../database/group-commit';
import { GroupRead } from '../../database/group-read';
import { PreparedSql } from '../../database/prepared-sql';
import { JOINABLE_LICENSES, readJoinedLicense } from '../licenses/licenses.repository';
import type { LicenseEntity } from '../licenses/licenses.service';
import { DeviceEntity } from './device.entity';

export type DeviceDetails = Pick<DeviceEntity, 'device_name' | 'hostname' | 'product' | 'version' | 'last_ip'>;

/** A heartbeat to store: the device's activity time, and its details when they changed. */
export interface Heartbeat {
  id: number;
  at: Date;
  details: DeviceDetails | null;
}

const L = JOINABLE_LICENSES;

const LOOKUP_COLUMNS =
  `SELECT ${L.columns}, ` +
  'd.id AS d_id, d.device_name AS d_device_name, d.hostname AS d_hostname, d.product AS d_product, d.version AS d_version, ' +
  'd.status AS d_status, d.activated_at AS d_activated_at, d.last_activity_at AS d_last_activity_at, ' +
  'd.deactivated_at AS d_deactivated_at, d.last_ip AS d_last_ip, d.server_uid AS d_server_uid ';

/** The license of a key and the device of a server on it, in one statement over the two unique indexes. */
const LOOKUP_SQL = LOOKUP_COLUMNS + `FROM ${L.table} LEFT JOIN devices d ON d.license_id = ${L.id} AND d.server_uid = ? WHERE ${L.key} = ?`;

/** Sizes the key and server lists of a batched lookup are padded to, so a connection prepares few statements. */
const LOOKUP_LIST_SIZES = [1, 2, 4, 8, 16, 32, 64];

/** The licenses of many keys with their devices of many servers, in one statement (MySQL's batched lookup). */
function batchLookupSql(keys: number, uids: number): string {
  const list = (count: number) => Array.from({ length: count }, () => '?').join(', ');
  return (
    LOOKUP_COLUMNS +
    `FROM ${L.table} LEFT JOIN devices d ON d.license_id = ${L.id} AND d.server_uid IN (${list(uids)}) WHERE ${L.key} IN (${list(keys)})`
  );
}

/**
 * The activation API's statements on the devices table, by prepared statements straight on the driver, where
 * building TypeORM queries would cost more than running them: the lookup of license and device (joined with the
 * licenses table as the licenses module defines it), and group-committed heartbeats.
 */
@Injectable()
export class DevicesRepository implements BeforeApplicationShutdown {
  private readonly sql: PreparedSql;
  /** Lookups of concurrent activation calls, one round trip for many (MySQL; SQLite answers in-process). */
  private readonly lookups = new GroupRead<[string, string], Record<string, unknown> | undefined>((pairs) => this.lookupMany(pairs));
  private readonly heartbeats = new GroupCommit<Heartbeat>((beats) => this.writeHeartbeats(beats));

  constructor(@InjectRepository(DeviceEntity) devices: Repository<DeviceEntity>) {
    this.sql = PreparedSql.for(devices.manager.connection);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.heartbeats.drain();
  }

  /** The license of a key and this server's device on it, by one prepared statement. */
  async lookup(licenseKey: string, serverUid: string): Promise<{ license: LicenseEntity | null; device: DeviceEntity | null }> {
    const row =
      this.sql.engine === 'sqlite'
        ? await this.sql.one<Record<string, unknown>>(LOOKUP_SQL, [serverUid, licenseKey])
        : await this.lookups.load([serverUid, licenseKey]);
    if (!row) return { license: null, device: null };
    const license = readJoinedLicense(row, (value) => this.sql.readDate(value));
    if (row.d_id === null || row.d_id === undefined) return { license, device: null };
    const device = Object.assign(new DeviceEntity(), {
      id: Number(row.d_id),
      license_id: license.id,
      server_uid: serverUid,
      device_name: row.d_device_name as string | null,
      hostname: row.d_hostname as string | null,
      product: row.d_product as string | null,
      version: row.d_version as string | null,
      status: row.d_status as DeviceEntity['status'],
      activated_at: this.sql.readDate(row.d_activated_at)!,
      last_activity_at: this.sql.readDate(row.d_last_activity_at),
      deactivated_at: this.sql.readDate(row.d_deactivated_at),
      last_ip: row.d_last_ip as string | null,
    });
    return { license, device };
  }

  /** Stores a heartbeat with others that arrive meanwhile; resolves once it is written. */
  recordHeartbeat(beat: Heartbeat): Promise<void> {
    return this.heartbeats.add(beat);
  }

  /**
   * Many lookups in one statement: every license of the keys, joined with its devices among the servers, matched
   * back to each (server, key) pair here. Server ids are letters, digits and `._:-` (checked on the way in), which
   * the column collation compares without regard to case, and so does this; keys are compared in capitals, exactly
   * (so a key with accents matches nothing here, as on SQLite, where the collation would have let it through).
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

  /**
   * One write for many heartbeats: the activity time of every device, and the details of those that changed. A
   * device whose server gave its seat back since its heartbeat was answered stays as the release left it (not
   * 'active' again with its seat gone).
   */
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
        'UPDATE devices SET device_name = ?, hostname = ?, product = ?, version = ?, last_ip = ? WHERE id = ?',
        changed.map(({ id, details: d }) => [d!.device_name, d!.hostname, d!.product, d!.version, d!.last_ip, id]),
      );
    }
  }
}
