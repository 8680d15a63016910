import { Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, DateTimeColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';

/** One single-use recovery code of an administrator's two-factor sign-in; only its SHA-256 is stored. */
@Entity('mfa_recovery_codes')
@Index('IDX_mfa_recovery_codes_user_id_code_hash', ['user_id', 'code_hash'])
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ReferenceColumn(() => UserEntity, 'FK_mfa_recovery_codes_user_id', 'CASCADE')
  user_id: number;

  @VarcharColumn(64)
  code_hash: string;

  @DateTimeColumn({ nullable: true })
  used_at: Date | null;

  @CreatedAt()
  created_at: Date;
}
