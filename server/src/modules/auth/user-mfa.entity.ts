import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** An administrator's TOTP authenticator: pending until confirmed with a first code (enabled_at). */
@Entity('user_mfa')
export class UserMfaEntity {
  @PrimaryColumn({ type: 'int' })
  user_id: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_mfa_user_id' })
  user: UserEntity;

  /** The TOTP secret, sealed with AES-256-GCM (SecretBox); never sent again after enrolment. */
  @Column({ type: 'varchar', length: 255 })
  secret: string;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  enabled_at: Date | null;

  /** The last time step whose code was accepted: a code of that step or an earlier one is not taken again. */
  @Column({ type: 'int', nullable: true })
  last_used_step: number | null;

  @CreateDateColumn()
  created_at: Date;
}
