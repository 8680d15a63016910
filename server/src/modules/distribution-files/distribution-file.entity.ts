import { type OsType, type Architecture } from '../versions/versions.constants';
import { Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BigIntColumn, CreatedAt, IntColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import { VersionEntity } from '../versions/version.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

export { OS_TYPES, ARCHITECTURES, type OsType, type Architecture } from '../versions/versions.constants';

/** One downloadable build of a version for an OS and architecture. The bytes live in FileStorage under storage_key. */
@Entity('distribution_files')
@Index('UQ_distribution_files_version_id_file_name', ['version_id', 'file_name'], { unique: true })
@Index('IDX_distribution_files_os_type_created_at', ['os_type', 'created_at'])
@Index('IDX_distribution_files_architecture_created_at', ['architecture', 'created_at'])
// The admin list's sorts (see the ListIndexes migration).
@Index('IDX_distribution_files_file_name', ['file_name'])
@Index('IDX_distribution_files_file_size', ['file_size'])
@Index('IDX_distribution_files_download_count', ['download_count'])
@Index('IDX_distribution_files_os_type', ['os_type'])
@Index('IDX_distribution_files_version_number', ['version_number'])
export class DistributionFileEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @IntColumn()
  version_id: number;

  @ManyToOne(() => VersionEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'version_id', foreignKeyConstraintName: 'FK_distribution_files_version_id' })
  version?: VersionEntity;

  /**
   * The version's number, copied so the list sorted by version reads one index of this table instead of sorting
   * every file joined to its version (written on upload, rewritten when the version is renamed, in the rename's
   * transaction). Only the sort reads it; what is shown comes from the version itself.
   */
  @VarcharColumn(MAX_LENGTH.version, { default: '' })
  version_number: string;

  @VarcharColumn(10)
  os_type: OsType;

  @VarcharColumn(10)
  architecture: Architecture;

  /** The name offered to the downloader (validated; never used as a path). */
  @VarcharColumn(MAX_LENGTH.fileName)
  file_name: string;

  /** Portal-made key in FileStorage (files/<uuid>.<ext>). */
  @VarcharColumn(100)
  storage_key: string;

  @BigIntColumn()
  file_size: number;

  /** SHA-256 (hex), computed while the upload streamed in; also the download's ETag. */
  @VarcharColumn(64)
  file_hash: string;

  /** Raised only by atomic `download_count = download_count + n` updates. */
  @IntColumn({ default: 0 })
  download_count: number;

  @ReferenceColumn(() => UserEntity, 'FK_distribution_files_created_by', 'SET NULL')
  created_by: number | null;

  @CreatedAt('IDX_distribution_files_created_at')
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
