import { type LicenseStatus } from './licenses.constants';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

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
  @Column({ type: 'varchar', length: MAX_LENGTH.licenseKey })
  license_key: string;

  /** The key in capitals without hyphens (set on insert), so the admin search finds a key typed any way by one index range. */
  @Index('IDX_licenses_license_key_compact')
  @Column({ type: 'varchar', length: MAX_LENGTH.licenseKey, nullable: true })
  license_key_compact: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.productName })
  product_name: string;

  /** The owner; kept as null (with user_email) when the account is deleted, so the license and its devices stay known. */
  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_licenses_user_id' })
  user?: UserEntity | null;

  @Index('IDX_licenses_user_email')
  @Column({ type: 'varchar', length: MAX_LENGTH.email })
  user_email: string;

  @Column({ type: 'varchar', length: 20, default: 'active' })
  status: LicenseStatus;

  @Column({ type: 'boolean', default: false })
  is_trial: boolean;

  @Index('IDX_licenses_expires_at')
  @Column({ type: 'datetime', precision: 3 })
  expires_at: Date;

  @Column({ type: 'int', default: 1 })
  max_activations: number;

  /** Devices holding a seat; changed only by conditional SQL updates, never read-modify-write. */
  @Column({ type: 'int', default: 0 })
  current_activations: number;

  /** The paid order this license fulfils; unique, so one order can never yield two licenses. */
  @Index('UQ_licenses_order_id', { unique: true })
  @Column({ type: 'int', nullable: true })
  order_id: number | null;

  /** When the license server last confirmed this license (the portal itself, unless an external one is configured). */
  @Index('IDX_licenses_synced_at')
  @Column({ type: 'datetime', precision: 3, nullable: true })
  synced_at: Date | null;

  @Index('IDX_licenses_created_at')
  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
