import { type UserRole } from '../../common/roles';
import { Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BooleanColumn, CreatedAt, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
import { MAX_LENGTH } from '../../database/column-lengths';
import type { Channel } from '../../common/channels';

export { USER_ROLES, type UserRole } from '../../common/roles';

@Entity('users')
// The admin list's sorts and name search (see the ListIndexes migration).
@Index('IDX_users_first_name_last_name', ['first_name', 'last_name'])
@Index('IDX_users_last_name', ['last_name'])
@Index('IDX_users_is_verified', ['is_verified'])
@Index('IDX_users_last_login', ['last_login'])
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_users_email', { unique: true })
  @VarcharColumn(MAX_LENGTH.email)
  email: string;

  @VarcharColumn(255)
  password_hash: string;

  @VarcharColumn(MAX_LENGTH.firstName, { default: '' })
  first_name: string;

  @VarcharColumn(MAX_LENGTH.lastName, { default: '' })
  last_name: string;

  @VarcharColumn(MAX_LENGTH.company, { nullable: true })
  company: string | null;

  @VarcharColumn(MAX_LENGTH.phone, { nullable: true })
  phone: string | null;

  @VarcharColumn(MAX_LENGTH.country, { nullable: true })
  country: string | null;

  @VarcharColumn(20, { default: 'client', index: 'IDX_users_role' })
  role: UserRole;

  /** The release channel granted to every license of this customer (a license may be granted more on its own). */
  @VarcharColumn(10, { default: 'stable' })
  channel: Channel;

  @BooleanColumn({ default: true, index: 'IDX_users_is_active' })
  is_active: boolean;

  @BooleanColumn({ default: false })
  is_verified: boolean;

  @DateTimeColumn({ nullable: true })
  email_verified_at: Date | null;

  /** SHA-256 of the one-time verification token; the token itself is only in the mail. */
  @VarcharColumn(64, { nullable: true, index: 'IDX_users_verification_token_hash' })
  verification_token_hash: string | null;

  @DateTimeColumn({ nullable: true })
  verification_token_expires: Date | null;

  /** SHA-256 of the pending one-time password-reset token; the token itself is only in the mail. */
  @VarcharColumn(64, { nullable: true, index: 'IDX_users_password_reset_token_hash' })
  password_reset_token_hash: string | null;

  @DateTimeColumn({ nullable: true })
  password_reset_expires: Date | null;

  @DateTimeColumn({ nullable: true })
  last_login: Date | null;

  /** A new address the user asked for, in effect once confirmed through the link mailed to it. */
  @VarcharColumn(MAX_LENGTH.email, { nullable: true })
  pending_email: string | null;

  /** SHA-256 of the token in that link. */
  @VarcharColumn(64, { nullable: true, index: 'IDX_users_pending_email_token_hash' })
  pending_email_token_hash: string | null;

  @DateTimeColumn({ nullable: true })
  pending_email_expires: Date | null;

  /** Raised on password change and deactivation; sessions minted under an older version stop working. */
  @IntColumn({ default: 0 })
  token_version: number;

  @CreatedAt('IDX_users_created_at')
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
