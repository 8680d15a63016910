import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import type { UserEntity } from '../users/users.service';
import { UsersService } from '../users/users.service';
import { JWT_ALGORITHM } from './sessions.service';

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
}

/** What the password step of an admin sign-in hands to the second step: a short-lived signed token, never a session. */
@Injectable()
export class MfaChallenges {
  constructor(
    private readonly jwt: JwtService,
    private readonly users: UsersService,
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

  /** The admin a challenge of this stage was issued to, while it is good; otherwise 401. */
  async read(token: string, stage: MfaStage): Promise<UserEntity> {
    let claims: ChallengeClaims;
    try {
      claims = await this.jwt.verifyAsync<ChallengeClaims>(token, { algorithms: [JWT_ALGORITHM], issuer: ISSUER });
    } catch {
      throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    }
    if (claims.stage !== stage || typeof claims.sub !== 'number') throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    const user = await this.users.find(claims.sub);
    if (!user || !user.is_active || user.role !== 'admin' || user.token_version !== claims.ver)
      throw ApiError.unauthorized(CHALLENGE_EXPIRED);
    return user;
  }
}
