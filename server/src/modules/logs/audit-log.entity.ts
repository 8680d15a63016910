import { type LogLevel } from './logs.constants';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
import { MAX_LENGTH } from '../../database/column-lengths';

export { LOG_LEVELS, type LogLevel } from './logs.constants';

/**
 * The audit trail (the local part of System Logs): every admin action, every security event and every server
 * error, with who did it, to what, from where. Stored by value (no foreign keys), so it outlives the accounts and
 * records it names; never cleared from the screen, only pruned after LOG_RETENTION_DAYS_AUDIT.
 */
@Entity('audit_logs')
@Index('IDX_audit_logs_level_created_at', ['level', 'created_at'])
@Index('IDX_audit_logs_actor_email_created_at', ['actor_email', 'created_at'])
@Index('IDX_audit_logs_action_created_at', ['action', 'created_at'])
@Index('IDX_audit_logs_ip_address_created_at', ['ip_address', 'created_at'])
// MariaDB only, made by the migration (SQLite has an FTS5 table instead); the schema sync leaves it alone.
@Index('FT_audit_logs_message', { synchronize: false })
export class AuditLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @VarcharColumn(10)
  level: LogLevel;

  /** What happened, as `area.verb`: user.create, license.revoke, auth.login, server.error … */
  @VarcharColumn(64)
  action: string;

  @VarcharColumn(MAX_LENGTH.auditMessage)
  message: string;

  @IntColumn({ nullable: true })
  actor_id: number | null;

  @VarcharColumn(MAX_LENGTH.email, { nullable: true })
  actor_email: string | null;

  /** The kind of record acted on: user, version, file, license, settings, logs … */
  @VarcharColumn(32, { nullable: true })
  target_type: string | null;

  @VarcharColumn(64, { nullable: true })
  target_id: string | null;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  ip_address: string | null;

  @VarcharColumn(MAX_LENGTH.userAgent, { nullable: true })
  user_agent: string | null;

  /** A small JSON object: HTTP status, the fields changed (never their secret values), counts. */
  @Column({ type: 'text', nullable: true })
  context: string | null;

  @DateTimeColumn({ index: 'IDX_audit_logs_created_at' })
  created_at: Date;
}
