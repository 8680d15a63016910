import { type DeviceStatus } from './devices.constants';
import { Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CreatedAt, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
import { LicenseEntity } from '../licenses/license.entity';
import { MAX_LENGTH } from '../../database/column-lengths';
import type { Architecture, OsType } from '../versions/versions.constants';

export { DEVICE_STATUSES, type DeviceStatus } from './devices.constants';

/**
 * A streaming server (server_uid) that activated a license. It holds a seat while deactivated_at is null;
 * status says how it is doing: active (reporting), inactive (silent or deactivated), failed (its license was refused).
 */
@Entity('devices')
@Index('UQ_devices_license_id_server_uid', ['license_id', 'server_uid'], { unique: true })
@Index('IDX_devices_status_last_activity_at', ['status', 'last_activity_at'])
// The admin list's sorts, searches and status filter (see the ListIndexes migration).
@Index('IDX_devices_last_activity_at', ['last_activity_at'])
@Index('IDX_devices_device_name', ['device_name'])
@Index('IDX_devices_hostname', ['hostname'])
@Index('IDX_devices_status_activated_at', ['status', 'activated_at'])
// How many active servers report a release (the rollout's figures).
@Index('IDX_devices_version_status', ['version', 'status'])
export class DeviceEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @IntColumn()
  license_id: number;

  @ManyToOne(() => LicenseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'license_id', foreignKeyConstraintName: 'FK_devices_license_id' })
  license?: LicenseEntity;

  @VarcharColumn(MAX_LENGTH.serverUid, { index: 'IDX_devices_server_uid' })
  server_uid: string;

  /** The name its server sends (activation, heartbeats). */
  @VarcharColumn(MAX_LENGTH.deviceName, { nullable: true })
  device_name: string | null;

  /** The name its owner gave it in My Devices; shown before device_name and hostname, never changed by its server. */
  @VarcharColumn(MAX_LENGTH.deviceName, { nullable: true })
  custom_name: string | null;

  @VarcharColumn(MAX_LENGTH.hostname, { nullable: true })
  hostname: string | null;

  @VarcharColumn(MAX_LENGTH.productName, { nullable: true })
  product: string | null;

  @VarcharColumn(MAX_LENGTH.version, { nullable: true })
  version: string | null;

  /** The operating system its server reports (activate and validate's `os`). */
  @VarcharColumn(10, { nullable: true })
  os: OsType | null;

  /** The architecture its server reports. */
  @VarcharColumn(10, { nullable: true })
  arch: Architecture | null;

  @VarcharColumn(20, { default: 'active' })
  status: DeviceStatus;

  @DateTimeColumn({ index: 'IDX_devices_activated_at' })
  activated_at: Date;

  @DateTimeColumn({ nullable: true })
  last_activity_at: Date | null;

  /** Set when the device gave its seat back (by itself, its owner, an admin, or a revocation). */
  @DateTimeColumn({ nullable: true })
  deactivated_at: Date | null;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  last_ip: string | null;

  @CreatedAt()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
