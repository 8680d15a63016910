import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A second-step token (mfa_token) that gave a session: it gives no other. Stored until the token would have expired. */
@Entity('spent_mfa_challenges')
export class SpentMfaChallengeEntity {
  /** The token's jti. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index('IDX_spent_mfa_challenges_expires_at')
  @Column({ type: 'datetime', precision: 3 })
  expires_at: Date;
}
