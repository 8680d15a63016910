import { CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { BooleanColumn, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

/** One signed-in token. Deleting the row kills the token before its JWT expiry (logout, deactivation, password change). */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index('IDX_sessions_user_id')
  @ForeignKey(() => UserEntity, { onDelete: 'CASCADE', name: 'FK_sessions_user_id' })
  @IntColumn()
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

  @Index('IDX_sessions_expires_at')
  @DateTimeColumn()
  expires_at: Date;

  @VarcharColumn(MAX_LENGTH.ip, { nullable: true })
  ip: string | null;

  @VarcharColumn(MAX_LENGTH.sessionUserAgent, { nullable: true })
  user_agent: string | null;

  @CreateDateColumn()
  created_at: Date;

  /** When the token was last used (written at most once a minute, so most requests do not write). */
  @DateTimeColumn({ nullable: true })
  last_used_at: Date | null;
}
