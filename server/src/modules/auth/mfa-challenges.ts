import { Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Cron, CronExpression } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import type { UserEntity } from '../users/users.service';
import { UsersService } from '../users/users.service';
import { JWT_ALGORITHM } from './sessions.service';
import { SpentMfaChallengesRepository } from './spent-mfa-challenges.repository';

export const MFA_STAGES = ['verify', 'enroll'] as const;
/** The second step of an admin sign-in: a code ('verify'), or first setting up an authenticator ('enroll'). */
export type MfaStage = (typeof MFA_STAGES)[number];

// Another issuer than sessions: the guard never takes a challenge for a session, nor the second step a session for a challenge.
const ISSUER = 'streamhub-portal/mfa';
export const MFA_CHALLENGE_TTL_SECONDS = 300;
export const CHALLENGE_EXPIRED = 'Your sign-in has expired. Please log in again.';

interface ChallengeClaims {
  sub: number;
  stage: MfaStage;
  /** The user's token_version: a password change or deactivation voids a challenge in flight. */
  ver: number;
  jti?: string;
  exp?: number;
}

/** A second-step token that checked out, and the admin it was issued to. */
export interface MfaChallenge {
  user: UserEntity;
  id: string;
  expiresAt: Date;
}

/** What the password step of an admin sign-in hands to the second step: a short-lived signed token, never a session. */
@Injectable()
export class MfaChallenges {
  private readonly logger = new Logger('MfaChallenges');

  constructor(
    private readonly jwt: JwtService,
    private readonly users: UsersService,
    private readonly spent: SpentMfaChallengesRepository,
  ) {}

  issue(user: UserEntity, stage: MfaStage): Promise<string> {
    const claims: ChallengeClaims = { sub: user.id, stage, ver: user.token_version };
    return this.jwt.signAsync(claims, {
      algorithm: JWT_ALGORITHM,
      expiresIn: MFA_CHALLENGE_TTL_SECONDS,
      issuer: ISSUER,
      jwtid: randomUUID(),
    });
  }

  /** A challenge of this stage and the admin it was issued to, while it is good and not spent; otherwise 401. */
  async read(token: string, stage: MfaStage): Promise<MfaChallenge> {
    let claims: ChallengeClaims;
    try {
      claims = await this.jwt.verifyAsync<ChallengeClaims>(token, { algorithms: [JWT_ALGORITHM], issuer: ISSUER });
    } catch {
      throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    }
    if (claims.stage !== stage || typeof claims.sub !== 'number' || typeof claims.jti !== 'string' || typeof claims.exp !== 'number')
      throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    const [user, spent] = await Promise.all([this.users.find(claims.sub), this.spent.isSpent(claims.jti)]);
    if (spent || !user || !user.is_active || user.role !== 'admin' || user.token_version !== claims.ver)
      throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    return { user, id: claims.jti, expiresAt: new Date(claims.exp * 1000) };
  }

  /**
   * Spends a challenge that just gave its admin a session: it gives no second one, even with another code or a
   * recovery code. Of two racing successes one spends it and the other gets 401.
   */
  async spend(challenge: MfaChallenge): Promise<void> {
    if (!(await this.spent.spend(challenge.id, challenge.expiresAt))) throw ApiError.unauthorized(CHALLENGE_EXPIRED);
  }

  @Cron(CronExpression.EVERY_HOUR)
  async purgeExpired(): Promise<void> {
    const affected = await this.spent.deleteExpired(new Date());
    if (affected) this.logger.debug(`Forgot ${affected} spent sign-in challenges past their expiry`);
  }
}
