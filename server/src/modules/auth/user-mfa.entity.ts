import { Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { CreatedAt, DateTimeColumn, IntColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';

/** An administrator's TOTP authenticator: pending until confirmed with a first code (enabled_at). */
@Entity('user_mfa')
export class UserMfaEntity {
  @ForeignKey(() => UserEntity, { onDelete: 'CASCADE', name: 'FK_user_mfa_user_id' })
  @PrimaryColumn({ type: 'int' })
  user_id: number;

  /** The TOTP secret, sealed with AES-256-GCM (SecretBox); never sent again after enrolment. */
  @VarcharColumn(255)
  secret: string;

  @DateTimeColumn({ nullable: true })
  enabled_at: Date | null;

  /** The last time step whose code was accepted: a code of that step or an earlier one is not taken again. */
  @IntColumn({ nullable: true })
  last_used_step: number | null;

  @CreatedAt()
  created_at: Date;
}
