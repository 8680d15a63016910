import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** One single-use recovery code of an administrator's two-factor sign-in; only its SHA-256 is stored. */
@Entity('mfa_recovery_codes')
@Index('IDX_mfa_recovery_codes_user_id_code_hash', ['user_id', 'code_hash'])
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  user_id: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_mfa_recovery_codes_user_id' })
  user: UserEntity;

  @Column({ type: 'varchar', length: 64 })
  code_hash: string;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  used_at: Date | null;

  @CreateDateColumn()
  created_at: Date;
}
