import { Entity, PrimaryColumn } from 'typeorm';
import { BooleanColumn, CreatedAt, DateTimeColumn, IntColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

/** One signed-in token. Deleting the row kills the token before its JWT expiry (logout, deactivation, password change). */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @ReferenceColumn(() => UserEntity, 'FK_sessions_user_id', 'CASCADE', 'IDX_sessions_user_id')
  user_id: number;

  /**
   * The session began with a second factor (or it was set up in it). An admin whose account has two-factor sign-in
   * is an admin only in such a session (SessionsService.resolve).
   */
  @BooleanColumn({ default: false })
  second_factor: boolean;

  /** The user's token_version when the session began. */
  @IntColumn()
  token_version: number;

  @DateTimeColumn({ index: 'IDX_sessions_expires_at' })
  expires_at: Date;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  ip: string | null;

  @VarcharColumn(MAX_LENGTH.sessionUserAgent, { nullable: true })
  user_agent: string | null;

  @CreatedAt()
  created_at: Date;

  /** When the token was last used (written at most once a minute, so most requests do not write). */
  @DateTimeColumn({ nullable: true })
  last_used_at: Date | null;
}
