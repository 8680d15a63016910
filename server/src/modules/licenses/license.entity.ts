import { type LicenseStatus } from './licenses.constants';
import { Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BooleanColumn, CreatedAt, DateTimeColumn, IntColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';
import type { Channel } from '../../common/channels';

export { LICENSE_STATUSES, type LicenseStatus } from './licenses.constants';

@Entity('licenses')
@Index('IDX_licenses_user_id_created_at', ['user_id', 'created_at'])
@Index('IDX_licenses_status_expires_at', ['status', 'expires_at'])
@Index('IDX_licenses_status_created_at', ['status', 'created_at'])
@Index('IDX_licenses_is_trial_created_at', ['is_trial', 'created_at'])
@Index('IDX_licenses_product_name_created_at', ['product_name', 'created_at'])
export class LicenseEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_licenses_license_key', { unique: true })
  @VarcharColumn(MAX_LENGTH.licenseKey)
  license_key: string;

  /** The key in capitals without hyphens (set on insert), so the admin search finds a key typed any way by one index range. */
  @VarcharColumn(MAX_LENGTH.licenseKey, { nullable: true, index: 'IDX_licenses_license_key_compact' })
  license_key_compact: string | null;

  @VarcharColumn(MAX_LENGTH.productName)
  product_name: string;

  /** The owner; kept as null (with user_email) when the account is deleted, so the license and its devices stay known. */
  @ReferenceColumn(() => UserEntity, 'FK_licenses_user_id', 'SET NULL')
  user_id: number | null;

  @VarcharColumn(MAX_LENGTH.email, { index: 'IDX_licenses_user_email' })
  user_email: string;

  @VarcharColumn(20, { default: 'active' })
  status: LicenseStatus;

  @BooleanColumn({ default: false })
  is_trial: boolean;

  @DateTimeColumn({ index: 'IDX_licenses_expires_at' })
  expires_at: Date;

  /** The release channel granted: this one and every channel before it (see channelsUpTo). */
  @VarcharColumn(10, { default: 'stable' })
  channel: Channel;

  /** The end of maintenance: releases published after it are not covered. Null: the license's expiry. */
  @DateTimeColumn({ nullable: true })
  updates_until: Date | null;

  @IntColumn({ default: 1 })
  max_activations: number;

  /** Devices holding a seat; changed only by conditional SQL updates, never read-modify-write. */
  @IntColumn({ default: 0 })
  current_activations: number;

  /** The paid order this license fulfils; unique, so one order can never yield two licenses. */
  @Index('UQ_licenses_order_id', { unique: true })
  @IntColumn({ nullable: true })
  order_id: number | null;

  /** When the license server last confirmed this license (the portal itself, unless an external one is configured). */
  @DateTimeColumn({ nullable: true, index: 'IDX_licenses_synced_at' })
  synced_at: Date | null;

  @CreatedAt('IDX_licenses_created_at')
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
