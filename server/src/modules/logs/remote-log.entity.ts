import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One call of the activation API by a streaming server (activate, validate, deactivate): the System Logs
 * screen's remote entries. Kept by value (no foreign keys), so the record outlives a deleted license.
 */
@Entity('remote_logs')
@Index('UQ_remote_logs_origin_origin_id', ['origin', 'origin_id'], { unique: true })
export class RemoteLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** 'activate', 'validate' or 'deactivate'. */
  @Column({ type: 'varchar', length: 20 })
  action: string;

  /** 'info' for a valid answer, 'warning' for a refusal. */
  @Column({ type: 'varchar', length: 10 })
  level: string;

  @Column({ type: 'varchar', length: 255 })
  message: string;

  @Column({ type: 'varchar', length: 64 })
  license_key: string;

  @Column({ type: 'varchar', length: 128 })
  server_uid: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  hostname: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  product: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  version: string | null;

  @Column({ type: 'boolean' })
  valid: boolean;

  /** The answer's code: VALID, EXPIRED, REVOKED, TOO_MANY_DEVICES, NOT_FOUND, ... */
  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip_address: string | null;

  /** When the portal answered (the entry's timestamp). */
  @Index('IDX_remote_logs_created_at')
  @Column({ type: 'datetime', precision: 3 })
  created_at: Date;

  /** The external license server an entry was pulled from (its URL), or null for this portal's own activation API. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  origin: string | null;

  /** The entry's id on that server. */
  @Column({ type: 'int', nullable: true })
  origin_id: number | null;
}
