import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { SpentMfaChallengeEntity } from './spent-mfa-challenge.entity';

/** The spent_mfa_challenges table: second-step tokens that already gave a session. */
@Injectable()
export class SpentMfaChallengesRepository {
  constructor(@InjectRepository(SpentMfaChallengeEntity) private readonly spent: Repository<SpentMfaChallengeEntity>) {}

  isSpent(id: string): Promise<boolean> {
    return this.spent.existsBy({ id });
  }

  /** Records the challenge as spent; false when it already was (of two racing, one records it). */
  async spend(id: string, expiresAt: Date): Promise<boolean> {
    try {
      await this.spent.insert({ id, expires_at: expiresAt });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Forgets the challenges whose token has expired at `now`; how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { affected } = await this.spent.delete({ expires_at: LessThan(now) });
    return affected ?? 0;
  }
}
