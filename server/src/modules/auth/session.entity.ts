import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

/** One signed-in token. Deleting the row kills the token before its JWT expiry (logout, deactivation, password change). */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index('IDX_sessions_user_id')
  @Column({ type: 'int' })
  user_id: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_sessions_user_id' })
  user: UserEntity;

  /**
   * The session began with a second factor (or it was set up in it). An admin whose account has two-factor sign-in
   * is an admin only in such a session (SessionsService.resolve).
   */
  @Column({ type: 'boolean', default: false })
  second_factor: boolean;

  /** The user's token_version when the session began. */
  @Column({ type: 'int' })
  token_version: number;

  @Index('IDX_sessions_expires_at')
  @Column({ type: 'datetime', precision: 3 })
  expires_at: Date;

  @Column({ type: 'varchar', length: MAX_LENGTH.ip, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.sessionUserAgent, nullable: true })
  user_agent: string | null;

  @CreateDateColumn()
  created_at: Date;

  /** When the token was last used (written at most once a minute, so most requests do not write). */
  @Column({ type: 'datetime', precision: 3, nullable: true })
  last_used_at: Date | null;
}
