import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThan, Not, Repository } from 'typeorm';
import { AuthUser } from '../../common/current-user.decorator';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PreparedSql } from '../../database/prepared-sql';
import type { UserEntity } from '../users/users.service';
import { JOINABLE_USERS as U } from '../users/users.repository';
import { SessionEntity } from './session.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

interface TokenClaims {
  sub: number;
  sid: string;
}

export const JWT_ALGORITHM = 'HS256';

// Run on every authenticated request: a prepared statement, not a query built anew each time.
const RESOLVE_SQL =
  `SELECT s.id AS sid, ${U.sessionUserColumns} FROM sessions s INNER JOIN ${U.table} ON ${U.id} = s.user_id ` +
  `WHERE s.id = ? AND ${U.id} = ? AND s.expires_at > ? AND s.token_version = ${U.tokenVersion} AND ${U.isActive} = ?`;
export const JWT_ISSUER = 'streamhub-portal';

/** Issues bearer tokens and decides, per request, whether one is still good. */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger('Sessions');
  private readonly sql: PreparedSql;

  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    dataSource: DataSource,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  async start(user: UserEntity, client: { ip?: string; userAgent?: string }): Promise<string> {
    const id = randomUUID();
    const ttl = this.config.jwt.ttlSeconds;
    await this.sessions.insert({
      id,
      user_id: user.id,
      token_version: user.token_version,
      expires_at: new Date(Date.now() + ttl * 1000),
      ip: client.ip?.slice(0, MAX_LENGTH.ip) ?? null,
      user_agent: client.userAgent?.slice(0, MAX_LENGTH.sessionUserAgent) ?? null,
    });
    const claims: TokenClaims = { sub: user.id, sid: id };
    return this.jwt.signAsync(claims, { algorithm: JWT_ALGORITHM, expiresIn: ttl, issuer: JWT_ISSUER, jwtid: id });
  }

  /** The user behind a token: null for a bad signature, expiry, logout, deactivation or password change. */
  async resolve(token: string): Promise<AuthUser | null> {
    let claims: TokenClaims;
    try {
      claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: [JWT_ALGORITHM], issuer: JWT_ISSUER });
    } catch {
      return null;
    }
    if (typeof claims.sid !== 'string' || typeof claims.sub !== 'number') return null;
    const row = await this.sql.one<{ sid: string; id: number; email: string; role: AuthUser['role'] }>(RESOLVE_SQL, [
      claims.sid,
      claims.sub,
      new Date(),
      true,
    ]);
    return row ? { id: Number(row.id), email: row.email, role: row.role, sessionId: row.sid } : null;
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
    const { affected } = await this.sessions.delete({ expires_at: LessThan(new Date()) });
    if (affected) this.logger.log(`Removed ${affected} expired sessions`);
  }
}
