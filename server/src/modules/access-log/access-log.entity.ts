import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { MAX_LENGTH } from '../../database/column-lengths';

/** One HTTP request to the API (not /api/health, nor the web client's files): the Access Logs of System Logs. */
@Entity('access_logs')
@Index('IDX_access_logs_status_created_at', ['status', 'created_at'])
// The search indexes, each (column, created_at): MariaDB/MySQL only, where the searches read them (SQLite's LIKE,
// case-insensitive, reads no index of a BINARY column), so the schema check leaves them to the migration.
@Index('IDX_access_logs_ip_address_created_at', { synchronize: false })
@Index('IDX_access_logs_user_email_created_at', { synchronize: false })
@Index('IDX_access_logs_route_created_at', { synchronize: false })
@Index('IDX_access_logs_path_created_at', { synchronize: false })
export class AccessLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 10 })
  method: string;

  /** The route's template (`/api/admin/users/:id`), or '-' when no route matched. */
  @Column({ type: 'varchar', length: MAX_LENGTH.accessRoute })
  route: string;

  /** The path as requested, without the query string. */
  @Column({ type: 'varchar', length: MAX_LENGTH.accessPath })
  path: string;

  @Column({ type: 'smallint' })
  status: number;

  @Column({ type: 'int' })
  duration_ms: number;

  @Column({ type: 'int' })
  bytes_out: number;

  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.email, nullable: true })
  user_email: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.ip, nullable: true })
  ip_address: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.userAgent, nullable: true })
  user_agent: string | null;

  @Index('IDX_access_logs_created_at')
  @Column({ type: 'datetime', precision: 3 })
  created_at: Date;
}
