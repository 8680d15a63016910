import { type DownloadChannel } from './logs.constants';
import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
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

  @IntColumn({ nullable: true })
  user_id: number | null;

  @VarcharColumn(MAX_LENGTH.email, { nullable: true })
  user_email: string | null;

  @IntColumn({ nullable: true, index: 'IDX_download_logs_file_id' })
  file_id: number | null;

  @VarcharColumn(MAX_LENGTH.fileName)
  file_name: string;

  @VarcharColumn(MAX_LENGTH.version, { nullable: true })
  version: string | null;

  @VarcharColumn(10, { nullable: true })
  os_type: string | null;

  @VarcharColumn(10, { nullable: true })
  architecture: string | null;

  @BigIntColumn({ nullable: true })
  file_size: number | null;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  ip_address: string | null;

  @VarcharColumn(MAX_LENGTH.userAgent, { nullable: true })
  user_agent: string | null;

  /** 'session' (bearer token) or 'link' (signed download link). */
  @VarcharColumn(10)
  via: DownloadChannel;

  @DateTimeColumn({ index: 'IDX_download_logs_created_at' })
  created_at: Date;
}
