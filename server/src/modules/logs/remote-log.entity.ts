import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BooleanColumn, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
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
  @VarcharColumn(20)
  action: string;

  /** 'info' for a valid license, 'warning' for a refusal. */
  @VarcharColumn(10)
  level: string;

  @VarcharColumn(MAX_LENGTH.remoteLogMessage)
  message: string;

  @VarcharColumn(MAX_LENGTH.licenseKey)
  license_key: string;

  @VarcharColumn(MAX_LENGTH.serverUid)
  server_uid: string;

  @VarcharColumn(MAX_LENGTH.hostname, { nullable: true })
  hostname: string | null;

  @VarcharColumn(MAX_LENGTH.productName, { nullable: true })
  product: string | null;

  @VarcharColumn(MAX_LENGTH.version, { nullable: true })
  version: string | null;

  @BooleanColumn()
  valid: boolean;

  /** The response's code: VALID, EXPIRED, REVOKED, TOO_MANY_DEVICES, NOT_FOUND, ... */
  @VarcharColumn(32)
  code: string;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  ip_address: string | null;

  /** When the portal responded (the entry's timestamp). */
  @DateTimeColumn({ index: 'IDX_remote_logs_created_at' })
  created_at: Date;

  /** The external license server an entry was pulled from (its URL), or null for this portal's own activation API. */
  @VarcharColumn(MAX_LENGTH.remoteLogOrigin, { nullable: true })
  origin: string | null;

  /** The entry's id on that server. */
  @IntColumn({ nullable: true })
  origin_id: number | null;
}
