import { type DownloadChannel } from './logs.constants';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { MAX_LENGTH } from '../../database/column-lengths';

export { DOWNLOAD_CHANNELS, type DownloadChannel } from './logs.constants';

/**
 * One download of a distribution file: who, what, from where, when. Stored by value (no foreign keys), so the
 * record outlives a deleted file or account, and written in batches off the download's hot path.
 */
@Entity('download_logs')
@Index('IDX_download_logs_user_id_created_at', ['user_id', 'created_at'])
export class DownloadLogEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.email, nullable: true })
  user_email: string | null;

  @Index('IDX_download_logs_file_id')
  @Column({ type: 'int', nullable: true })
  file_id: number | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.fileName })
  file_name: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.version, nullable: true })
  version: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  os_type: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  architecture: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: { to: (v: unknown) => v, from: (v: unknown) => (v == null ? v : Number(v)) } })
  file_size: number | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.ip, nullable: true })
  ip_address: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.userAgent, nullable: true })
  user_agent: string | null;

  /** 'session' (bearer token) or 'link' (signed download link). */
  @Column({ type: 'varchar', length: 10 })
  via: DownloadChannel;

  @Index('IDX_download_logs_created_at')
  @Column({ type: 'datetime', precision: 3 })
  created_at: Date;
}
