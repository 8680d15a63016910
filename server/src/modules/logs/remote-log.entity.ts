import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { MAX_LENGTH } from '../../database/column-lengths';

/**
 * One call of the activation API by a streaming server (activate, validate, deactivate): the System Logs
 * screen's remote entries. Stored by value (no foreign keys), so the record outlives a deleted license.
 */
@Entity('remote_logs')
@Index('UQ_remote_logs_origin_origin_id', ['origin', 'origin_id'], { unique: true })
export class RemoteLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** 'activate', 'validate' or 'deactivate'. */
  @Column({ type: 'varchar', length: 20 })
  action: string;

  /** 'info' for a valid license, 'warning' for a refusal. */
  @Column({ type: 'varchar', length: 10 })
  level: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.remoteLogMessage })
  message: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.licenseKey })
  license_key: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.serverUid })
  server_uid: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.hostname, nullable: true })
  hostname: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.productName, nullable: true })
  product: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.version, nullable: true })
  version: string | null;

  @Column({ type: 'boolean' })
  valid: boolean;

  /** The response's code: VALID, EXPIRED, REVOKED, TOO_MANY_DEVICES, NOT_FOUND, ... */
  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.ip, nullable: true })
  ip_address: string | null;

  /** When the portal responded (the entry's timestamp). */
  @Index('IDX_remote_logs_created_at')
  @Column({ type: 'datetime', precision: 3 })
  created_at: Date;

  /** The external license server an entry was pulled from (its URL), or null for this portal's own activation API. */
  @Column({ type: 'varchar', length: MAX_LENGTH.remoteLogOrigin, nullable: true })
  origin: string | null;

  /** The entry's id on that server. */
  @Column({ type: 'int', nullable: true })
  origin_id: number | null;
}
