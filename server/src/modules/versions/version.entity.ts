import { Column, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BigIntColumn, BooleanColumn, CreatedAt, DateTimeColumn, IntColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import type { Channel, VersionState } from './versions.constants';
import { MAX_LENGTH } from '../../database/column-lengths';

/** A released version of the streaming server. Distribution files (per OS and architecture) hang off it. */
@Entity('versions')
// The client catalog's order (latest first, newest release, id); also finds the latest version.
@Index('IDX_versions_is_latest_release_date_id', ['is_latest', 'release_date', 'id'])
// The client catalog (published, newest semantic version first) and the admin list's state filter.
@Index('IDX_versions_state_version_order', ['state', 'version_order'])
// The admin list's channel filter.
@Index('IDX_versions_channel_version_order', ['channel', 'version_order'])
export class VersionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** e.g. 2.1.0 or 3.0.0-beta.1 */
  @Index('UQ_versions_version', { unique: true })
  @VarcharColumn(MAX_LENGTH.version)
  version: string;

  /** Calendar date YYYY-MM-DD (no time zone to shift it). */
  @VarcharColumn(10, { index: 'IDX_versions_release_date' })
  release_date: string;

  @Column({ type: 'text', nullable: true })
  changelog: string | null;

  @VarcharColumn(500, { nullable: true })
  download_url: string | null;

  /** The file uploaded with the version (Upload Version form), if any. */
  @VarcharColumn(MAX_LENGTH.fileName, { nullable: true })
  file_name: string | null;

  @VarcharColumn(100, { nullable: true })
  storage_key: string | null;

  @BigIntColumn({ nullable: true })
  file_size: number | null;

  /** SHA-256 (hex) of the uploaded file. */
  @VarcharColumn(64, { nullable: true })
  file_hash: string | null;

  /** License-server secret of this version: admin-only, never in a client response. */
  @VarcharColumn(MAX_LENGTH.versionSecret, { nullable: true })
  secret_hash: string | null;

  /** License-server encryption key of this version: admin-only, never in a client response. */
  @VarcharColumn(MAX_LENGTH.versionSecret, { nullable: true })
  encryption_key: string | null;

  /** JSON text with os, ram, storage. */
  @Column({ type: 'text', nullable: true })
  min_system_requirements: string | null;

  /** Kept equal to channel === 'stable' (the specification's Stable/Beta flag and the license-server sync read it). */
  @BooleanColumn({ default: true })
  is_stable: boolean;

  @VarcharColumn(10, { default: 'stable' })
  channel: Channel;

  @VarcharColumn(10, { default: 'published' })
  state: VersionState;

  /** A key that sorts as semantic versions do (versionOrder); '' for a number that is not one. */
  @VarcharColumn(MAX_LENGTH.versionOrder, { default: '', index: 'IDX_versions_version_order' })
  version_order: string;

  /** When the version was first published (null while a draft). */
  @DateTimeColumn({ nullable: true })
  published_at: Date | null;

  /** When the version was yanked (null unless yanked). */
  @DateTimeColumn({ nullable: true })
  yanked_at: Date | null;

  /** The share of servers (by a hash of their server id) the update API offers it to; 100: every one. */
  @IntColumn({ default: 100 })
  rollout_percent: number;

  /** A paused rollout offers the release to no server until an admin resumes or finishes it. */
  @BooleanColumn({ default: false })
  rollout_paused: boolean;

  /** At most one row holds true (changed only by single UPDATE statements in transactions). */
  @BooleanColumn({ default: false })
  is_latest: boolean;

  /** Whether this version is meant to be pushed to the license server (false: Local Only). */
  @BooleanColumn({ default: true })
  license_server_sync: boolean;

  /** When the license server last received this version as it is now; cleared by edits. */
  @DateTimeColumn({ nullable: true })
  last_sync_at: Date | null;

  @ReferenceColumn(() => UserEntity, 'FK_versions_created_by', 'SET NULL')
  created_by: number | null;

  @CreatedAt('IDX_versions_created_at')
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
