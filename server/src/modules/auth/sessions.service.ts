import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Cron, CronExpression } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { Cache } from '../../common/cache';
import { AuthUser } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { Transaction } from '../../database/transactions';
import type { UserEntity } from '../users/users.service';
import { SessionInfo, SessionsRepository } from './sessions.repository';
import { MAX_LENGTH } from '../../database/column-lengths';

export type { SessionInfo } from './sessions.repository';

interface TokenClaims {
  sub: number;
  sid: string;
  /** Expiry, seconds since the epoch (set on every token this portal signs). */
  exp?: number;
}

/** Tokens whose signature and issuer were checked, cached at most (the one used longest ago goes first). */
const VERIFIED_TOKENS = 10_000;

export const JWT_ALGORITHM = 'HS256';
export const JWT_ISSUER = 'streamhub-portal';
/** A session's last use is written at most this often (per instance), so most requests do not write. */
const TOUCH_EVERY_MS = 60_000;
/** Sessions whose last write this instance remembers at most; one forgotten early is only written again. */
const TOUCHED_SESSIONS = 100_000;

/** Issues bearer tokens and decides, per request, whether one is still good. */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger('Sessions');
  /** The sessions whose last_used_at this instance wrote within TOUCH_EVERY_MS. */
  private readonly touched = new Cache<true>({ max: TOUCHED_SESSIONS, ttlMs: TOUCH_EVERY_MS });

  /**
   * Tokens already verified, with their claims: the same bytes verify the same way every time, so a token in use has
   * its HMAC checked once; its expiry and its session row (logout, deactivation, password change) are checked on
   * each use. No token outlives the session ttl, nor its cache entry.
   */
  private readonly verified: Cache<TokenClaims>;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.verified = new Cache({ max: VERIFIED_TOKENS, ttlMs: config.jwt.ttlSeconds * 1000 });
  }

  /** A new session for the user; `secondFactor`: the sign-in passed a second factor. */
  async start(user: UserEntity, client: { ip?: string; userAgent?: string }, secondFactor = false): Promise<string> {
    const id = randomUUID();
    const ttl = this.config.jwt.ttlSeconds;
    await this.sessions.insert({
      id,
      user_id: user.id,
      second_factor: secondFactor,
      token_version: user.token_version,
      expires_at: new Date(Date.now() + ttl * 1000),
      ip: client.ip?.slice(0, MAX_LENGTH.ip) ?? null,
      user_agent: client.userAgent?.slice(0, MAX_LENGTH.sessionUserAgent) ?? null,
      last_used_at: new Date(),
    });
    this.touched.set(id, true);
    const claims: TokenClaims = { sub: user.id, sid: id };
    return this.jwt.signAsync(claims, { algorithm: JWT_ALGORITHM, expiresIn: ttl, issuer: JWT_ISSUER, jwtid: id });
  }

  /** The user behind a token: null for a bad signature, expiry, logout, deactivation or password change. */
  async resolve(token: string): Promise<AuthUser | null> {
    let claims = this.verified.peek(token);
    if (!claims) {
      try {
        claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER });
      } catch {
        return null;
      }
      this.verified.set(token, claims);
    } else if (claims.exp === undefined || claims.exp * 1000 <= Date.now()) {
      this.verified.delete(token);
      return null;
    }
    if (typeof claims.sid !== 'string' || typeof claims.sub !== 'number') return null;
    const session = await this.sessions.live(claims.sid, claims.sub, new Date());
    if (!session) return null;
    this.touch(session.sessionId);
    return { id: session.userId, email: session.email, role: session.role, sessionId: session.sessionId };
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: number): Promise<SessionInfo[]> {
    const rows = await this.sessions.liveOf(userId, new Date());
    const used = (session: SessionInfo) => (session.last_used_at ?? session.created_at).getTime();
    return rows.sort((a, b) => used(b) - used(a));
  }

  /** Ends one of the user's own sessions; false when the user has none by that id. */
  endOwn(userId: number, sessionId: string): Promise<boolean> {
    return this.sessions.delete(sessionId, userId);
  }

  /**
   * After a password change, or turning two-factor sign-in on: the sessions other than `keep` end, and `keep` carries
   * the user's new token_version so it lives on (with `secondFactor`, as a session that passed one). Runs in the
   * caller's transaction, with the user's update, so `keep` is never briefly invalid.
   */
  keepOnly(transaction: Transaction, userId: number, keep: string | null, tokenVersion: number, secondFactor?: true): Promise<number> {
    return this.sessions.keepOnly(transaction, userId, keep, tokenVersion, secondFactor);
  }

  /** Writes the session's last use when this instance has not written it for a minute; the request does not wait. */
  private touch(sessionId: string): void {
    if (this.touched.peek(sessionId)) return;
    this.touched.set(sessionId, true);
    this.sessions.touch(sessionId, new Date()).catch((error: Error) => this.logger.warn(`Session use not recorded: ${error.message}`));
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /** Ends every session of the user (a password reset), or every one but `keep` (a password change, 'sign out everywhere else'). */
  endAllOf(userId: number, keep?: string): Promise<number> {
    return this.sessions.deleteAllOf(userId, keep);
  }

  @Cron(CronExpression.EVERY_HOUR)
  async purgeExpired(): Promise<void> {
    const affected = await this.sessions.deleteExpired(new Date());
    if (affected) this.logger.log(`Removed ${affected} expired sessions`);
  }
}
