import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, MoreThan, Not, Repository } from 'typeorm';
import type { UserRole } from '../../common/roles';
import { PreparedSql } from '../../database/prepared-sql';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { JOINABLE_USERS as U } from '../users/users.repository';
import { SessionEntity } from './session.entity';

// Run on every authenticated request: a prepared statement, not a query built anew each time. An admin account with
// two-factor sign-in on counts only in a session that passed the second factor.
const RESOLVE_SQL =
  `SELECT s.id AS sid, ${U.sessionUserColumns} FROM sessions s INNER JOIN ${U.table} ON ${U.id} = s.user_id ` +
  `WHERE s.id = ? AND ${U.id} = ? AND s.expires_at > ? AND s.token_version = ${U.tokenVersion} AND ${U.isActive} = ? ` +
  `AND (s.second_factor = ? OR ${U.role} <> 'admin' OR NOT EXISTS ` +
  `(SELECT 1 FROM user_mfa m WHERE m.user_id = ${U.id} AND m.enabled_at IS NOT NULL))`;

/** A live session and who it signs in. */
export interface LiveSession {
  sessionId: string;
  userId: number;
  email: string;
  role: UserRole;
}

export type NewSession = Pick<
  SessionEntity,
  'id' | 'user_id' | 'second_factor' | 'token_version' | 'expires_at' | 'ip' | 'user_agent' | 'last_used_at'
>;
export type SessionInfo = Pick<SessionEntity, 'id' | 'created_at' | 'last_used_at' | 'ip' | 'user_agent' | 'expires_at'>;

@Injectable()
export class SessionsRepository {
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>) {
    this.sql = PreparedSql.for(sessions.manager.connection);
  }

  async insert(session: NewSession): Promise<void> {
    await this.sessions.insert(session);
  }

  /**
   * The session `sessionId` of user `userId` when it is live at `now`: not expired, begun under the user's current
   * token_version, the user active, and (for an admin with two factors) begun with the second factor.
   */
  async live(sessionId: string, userId: number, now: Date): Promise<LiveSession | null> {
    const params = [sessionId, userId, now, true, true];
    const row = await this.sql.one<{ sid: string; id: number; email: string; role: UserRole }>(RESOLVE_SQL, params);
    return row ? { sessionId: row.sid, userId: Number(row.id), email: row.email, role: row.role } : null;
  }

  /** The user's sessions that have not expired at `now`. */
  liveOf(userId: number, now: Date): Promise<SessionInfo[]> {
    return this.sessions.find({
      where: { user_id: userId, expires_at: MoreThan(now) },
      select: { id: true, created_at: true, last_used_at: true, ip: true, user_agent: true, expires_at: true },
    });
  }

  async touch(sessionId: string, at: Date): Promise<void> {
    await this.sessions.update({ id: sessionId }, { last_used_at: at });
  }

  /** Deletes the session; with `userId`, only when it is that user's. Whether there was one. */
  async delete(sessionId: string, userId?: number): Promise<boolean> {
    const { affected } = await this.sessions.delete(userId === undefined ? { id: sessionId } : { id: sessionId, user_id: userId });
    return !!affected;
  }

  /** Deletes every session of the user, or every one but `keep`; how many. */
  async deleteAllOf(userId: number, keep?: string): Promise<number> {
    const { affected } = await this.sessions.delete(keep ? { user_id: userId, id: Not(keep) } : { user_id: userId });
    return affected ?? 0;
  }

  /**
   * In `transaction`: the user's sessions other than `keep` are deleted, and `keep` carries `tokenVersion` (with
   * `secondFactor`, as a session that passed one); every session goes when `keep` is null. How many were deleted.
   */
  async keepOnly(
    transaction: Transaction,
    userId: number,
    keep: string | null,
    tokenVersion: number,
    secondFactor?: true,
  ): Promise<number> {
    const manager = managerOf(transaction);
    if (keep === null) return (await manager.delete(SessionEntity, { user_id: userId })).affected ?? 0;
    await manager.update(
      SessionEntity,
      { id: keep, user_id: userId },
      { token_version: tokenVersion, ...(secondFactor ? { second_factor: true } : {}) },
    );
    const { affected } = await manager.delete(SessionEntity, { user_id: userId, id: Not(keep) });
    return affected ?? 0;
  }

  /** Deletes the sessions expired at `now`; how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { affected } = await this.sessions.delete({ expires_at: LessThan(now) });
    return affected ?? 0;
  }
}
