import { Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/columns';

/** A second-step token (mfa_token) that gave a session: it gives no other. Stored until the token would have expired. */
@Entity('spent_mfa_challenges')
export class SpentMfaChallengeEntity {
  /** The token's jti. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @DateTimeColumn({ index: 'IDX_spent_mfa_challenges_expires_at' })
  expires_at: Date;
}
