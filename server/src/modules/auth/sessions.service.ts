import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { AuthUser } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PreparedSql } from '../../database/prepared-sql';
import type { UserEntity } from '../users/users.service';
import { JOINABLE_USERS as U } from '../users/users.repository';
import { SessionEntity } from './session.entity';
import { MAX_LENGTH } from '../../database/column-lengths';
import { RecentValues } from '../../common/recent-values';

interface TokenClaims {
  sub: number;
  sid: string;
  /** Expiry, seconds since the epoch (set on every token this portal signs). */
  exp?: number;
}

/** Tokens whose signature and issuer were checked, kept at most (the one checked longest ago goes first). */
const VERIFIED_TOKENS_KEPT = 10_000;

export const JWT_ALGORITHM = 'HS256';

// Run on every authenticated request: a prepared statement, not a query built anew each time. An admin account with
// two-factor sign-in on counts only in a session that passed the second factor.
const RESOLVE_SQL =
  `SELECT s.id AS sid, ${U.sessionUserColumns} FROM sessions s INNER JOIN ${U.table} ON ${U.id} = s.user_id ` +
  `WHERE s.id = ? AND ${U.id} = ? AND s.expires_at > ? AND s.token_version = ${U.tokenVersion} AND ${U.isActive} = ? ` +
  `AND (s.second_factor = ? OR ${U.role} <> 'admin' OR NOT EXISTS ` +
  `(SELECT 1 FROM user_mfa m WHERE m.user_id = ${U.id} AND m.enabled_at IS NOT NULL))`;
export const JWT_ISSUER = 'streamhub-portal';
/** A session's last use is written at most this often (per instance), so most requests do not write. */
const TOUCH_EVERY_MS = 60_000;

/** One of a user's sessions, as 'Where you are signed in' lists them. */
export interface SessionInfo {
  id: string;
  created_at: Date;
  last_used_at: Date | null;
  ip: string | null;
  user_agent: string | null;
  expires_at: Date;
}

/** Issues bearer tokens and decides, per request, whether one is still good. */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger('Sessions');
  private readonly sql: PreparedSql;
  /** When this instance last wrote each session's last_used_at. */
  private readonly touched = new Map<string, number>();

  /**
   * Tokens already verified, with their claims: the same bytes verify the same way every time, so a token in use has
   * its HMAC checked once (a share of every authenticated request's CPU); its expiry is checked on each use, and
   * its session row (logout, deactivation, password change) is read on each use as before.
   */
  private readonly verified = new RecentValues<TokenClaims>(VERIFIED_TOKENS_KEPT);

  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    dataSource: DataSource,
  ) {
    this.sql = PreparedSql.for(dataSource);
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
    this.touched.set(id, Date.now());
    const claims: TokenClaims = { sub: user.id, sid: id };
    return this.jwt.signAsync(claims, { algorithm: JWT_ALGORITHM, expiresIn: ttl, issuer: JWT_ISSUER, jwtid: id });
  }

  /** The user behind a token: null for a bad signature, expiry, logout, deactivation or password change. */
  async resolve(token: string): Promise<AuthUser | null> {
    let claims = this.verified.get(token);
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
    const row = await this.sql.one<{ sid: string; id: number; email: string; role: AuthUser['role'] }>(RESOLVE_SQL, [
      claims.sid,
      claims.sub,
      new Date(),
      true,
      true,
    ]);
    if (!row) return null;
    this.touch(row.sid);
    return { id: Number(row.id), email: row.email, role: row.role, sessionId: row.sid };
  }

  /** The user's live sessions, the most recently used first. */
  async list(userId: number): Promise<SessionInfo[]> {
    const rows = await this.sessions.find({
      where: { user_id: userId, expires_at: MoreThan(new Date()) },
      select: { id: true, created_at: true, last_used_at: true, ip: true, user_agent: true, expires_at: true },
    });
    const used = (session: SessionInfo) => (session.last_used_at ?? session.created_at).getTime();
    return rows.sort((a, b) => used(b) - used(a));
  }

  /** Ends one of the user's own sessions; false when the user has none by that id. */
  async endOwn(userId: number, sessionId: string): Promise<boolean> {
    const { affected } = await this.sessions.delete({ id: sessionId, user_id: userId });
    return !!affected;
  }

  /**
   * After a password change, or turning two-factor sign-in on: the sessions other than `keep` end, and `keep` carries
   * the user's new token_version so it lives on (with `secondFactor`, as a session that passed one). Runs in the
   * caller's transaction, with the user's update, so `keep` is never briefly invalid.
   */
  async keepOnly(manager: EntityManager, userId: number, keep: string | null, tokenVersion: number, secondFactor?: true): Promise<number> {
    if (keep === null) return (await manager.delete(SessionEntity, { user_id: userId })).affected ?? 0;
    await manager.update(
      SessionEntity,
      { id: keep, user_id: userId },
      { token_version: tokenVersion, ...(secondFactor ? { second_factor: true } : {}) },
    );
    const { affected } = await manager.delete(SessionEntity, { user_id: userId, id: Not(keep) });
    return affected ?? 0;
  }

  /** Writes the session's last use when this instance has not written it for a minute; the request does not wait. */
  private touch(sessionId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(sessionId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(sessionId, now);
    this.sessions
      .update({ id: sessionId }, { last_used_at: new Date(now) })
      .catch((error: Error) => this.logger.warn(`Session use not recorded: ${error.message}`));
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete({ id: sessionId });
  }

  /** Ends every session of the user (a password reset), or every one but `keep` (a password change, 'sign out everywhere else'). */
  async endAllOf(userId: number, keep?: string): Promise<number> {
    const { affected } = await this.sessions.delete(keep ? { user_id: userId, id: Not(keep) } : { user_id: userId });
    return affected ?? 0;
  }

  @Cron(CronExpression.EVERY_HOUR)
  async purgeExpired(): Promise<void> {
    const stale = Date.now() - TOUCH_EVERY_MS;
    for (const [id, at] of this.touched) if (at < stale) this.touched.delete(id);
    const { affected } = await this.sessions.delete({ expires_at: LessThan(new Date()) });
    if (affected) this.logger.log(`Removed ${affected} expired sessions`);
  }
}
