import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { ListTotals } from '../../common/list-totals';
import { Page } from '../../common/pagination';
import { isUniqueViolation } from '../../database/driver-errors';
import { OffLoopReads } from '../../database/off-loop-reads';
import { counterOf, engineOf, readPageByIds, sortColumn, whereSearch } from '../../database/pages';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { ListUsersQueryDto, UserSortKey } from './dto/list-users-query.dto';
import { USER_TRIGRAMS_TABLE } from './user-trigrams.repository';
import { UserEntity } from './user.entity';
import { EntityRows } from '../../database/entity-rows';

/** For auth's per-request session check (and the activation API's lookup) to join users in one round trip while the users columns stay named here. */
export const JOINABLE_USERS = {
  table: 'users u',
  id: 'u.id',
  tokenVersion: 'u.token_version',
  isActive: 'u.is_active',
  role: 'u.role',
  sessionUserColumns: 'u.id AS id, u.email AS email, u.role AS role',
  channel: 'u.channel',
} as const;

const SORT_COLUMNS: Record<UserSortKey, string[]> = {
  name: ['u.first_name', 'u.last_name'],
  email: ['u.email'],
  role: ['u.role'],
  status: ['u.is_active'],
  is_verified: ['u.is_verified'],
  last_login: ['u.last_login'],
  created_at: ['u.created_at'],
};

/**
 * A password reset or change and a confirmed new address void every pending link, so one mailed before (to an old address, or
 * asked for by someone who knew the old password) cannot undo what the owner just did.
 */
export const NO_OUTSTANDING_LINKS = {
  password_reset_token_hash: null,
  password_reset_expires: null,
  pending_email: null,
  pending_email_token_hash: null,
  pending_email_expires: null,
  verification_token_hash: null,
  verification_token_expires: null,
} as const;

export type UserPage = Page<UserEntity> & { overallTotal: number };

export interface UserCounts {
  total: number;
  active: number;
  verified: number;
  total_before: number;
}

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** `rarestTrigram` (MySQL/MariaDB): the term's trigram whose postings narrow the search (UserTrigramsRepository.rarest). */
  async page(query: ListUsersQueryDto, rarestTrigram: string | null, totals: ListTotals): Promise<UserPage> {
    const qb = this.users.createQueryBuilder('u');
    // `LIKE '%…%'` only among the users a trigram index finds (terms of 3+ characters): on SQLite an FTS5 phrase query (not FTS5's
    // own LIKE, which reads each candidate's text again), on MySQL/MariaDB the postings of the rarest trigram if rare enough.
    whereSearch(qb, ['u.email', "CONCAT(u.first_name, ' ', u.last_name)"], query.search);
    const term = query.search?.trim();
    // Characters, not UTF-16 units: a phrase of fewer than 3 has no trigram and would match nothing. FTS5's query
    // parser ends a string at NUL (a syntax error): such a term is left to the LIKE alone.
    if (term && [...term].length >= 3 && !term.includes('\0') && engineOf(qb) === 'sqlite')
      qb.andWhere('u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH :phrase)', { phrase: `"${term.replace(/"/g, '""')}"` });
    if (rarestTrigram)
      qb.andWhere(`u.id IN (SELECT t.user_id FROM ${USER_TRIGRAMS_TABLE} t WHERE t.trigram = :trigram)`, { trigram: rarestTrigram });
    if (query.role) qb.andWhere('u.role = :role', { role: query.role });
    // A yes/no filter matches a large share of users: the page reads the sort's index in order and checks the flag
    // on the way (COALESCE(x, x) is x, but no index range), instead of sorting every match of the flag's index; the
    // count still reads the flag's index (at most EXACT_TOTAL_CAP + 1 entries).
    const count = qb.clone();
    const flags: Array<[string, string, boolean | undefined]> = [
      ['is_active', 'active', query.status ? query.status === 'active' : undefined],
      ['is_verified', 'verified', query.email_status ? query.email_status === 'verified' : undefined],
    ];
    for (const [column, name, value] of flags) {
      if (value === undefined) continue;
      qb.andWhere(`COALESCE(u.${column}, u.${column}) = :${name}`, { [name]: value });
      count.andWhere(`u.${column} = :${name}`, { [name]: value });
    }
    const key = JSON.stringify([query.search?.trim() ?? '', query.status ?? '', query.role ?? '', query.email_status ?? '']);
    const [found, overallTotal] = await Promise.all([
      readPageByIds(
        qb,
        query,
        { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'u.id', defaultLimit: 10, unique: query.sort === 'email' },
        { cache: totals, key, count },
        (ids) => EntityRows.of(this.users).byIds(ids),
      ),
      totals.total('all', counterOf(this.users.createQueryBuilder('u'))),
    ]);
    return { ...found, overallTotal };
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** `email` as stored: trimmed and in lower case. */
  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email });
  }

  emailTaken(email: string): Promise<boolean> {
    return this.users.existsBy({ email });
  }

  create(fields: Partial<UserEntity>): UserEntity {
    return this.users.create(fields);
  }

  save(user: UserEntity): Promise<UserEntity> {
    return this.users.save(user);
  }

  /** Saves a user; null when another account has its e-mail address (also when two requests race for it). */
  async saveUnlessEmailTaken(user: UserEntity): Promise<UserEntity | null> {
    try {
      return await this.users.save(user);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Whether there was such a user. */
  async delete(id: number): Promise<boolean> {
    const { affected } = await this.users.delete({ id });
    return !!affected;
  }

  async recordLogin(id: number, at: Date): Promise<void> {
    await this.users.update({ id }, { last_login: at });
  }

  async setVerificationToken(id: number, tokenHash: string, expires: Date): Promise<void> {
    await this.users.update({ id }, { verification_token_hash: tokenHash, verification_token_expires: expires });
  }

  findByVerificationToken(tokenHash: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ verification_token_hash: tokenHash });
  }

  async setPasswordResetToken(id: number, tokenHash: string, expires: Date): Promise<void> {
    await this.users.update({ id }, { password_reset_token_hash: tokenHash, password_reset_expires: expires });
  }

  findByPasswordResetToken(tokenHash: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ password_reset_token_hash: tokenHash });
  }

  /** Only while the reset token is still the user's, so two requests racing with one link change it once. */
  async resetPassword(id: number, tokenHash: string, passwordHash: string, verify: boolean): Promise<boolean> {
    const { affected } = await this.users
      .createQueryBuilder()
      .update(UserEntity)
      .set({
        password_hash: passwordHash,
        ...NO_OUTSTANDING_LINKS,
        token_version: () => 'token_version + 1',
        ...(verify ? { is_verified: true, email_verified_at: new Date() } : {}),
      })
      .where('id = :id AND password_reset_token_hash = :tokenHash', { id, tokenHash })
      .execute();
    return !!affected;
  }

  async setPendingEmail(id: number, email: string, tokenHash: string, expires: Date): Promise<void> {
    await this.users.update({ id }, { pending_email: email, pending_email_token_hash: tokenHash, pending_email_expires: expires });
  }

  findByPendingEmailToken(tokenHash: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ pending_email_token_hash: tokenHash });
  }

  /** Makes `email` the user's address while the link's token is still theirs (see UsersService.confirmEmailChange). */
  async confirmPendingEmail(id: number, tokenHash: string, email: string): Promise<'changed' | 'spent' | 'taken'> {
    try {
      const { affected } = await this.users
        .createQueryBuilder()
        .update(UserEntity)
        .set({ email, ...NO_OUTSTANDING_LINKS, is_verified: true, email_verified_at: new Date() })
        .where('id = :id AND pending_email_token_hash = :tokenHash', { id, tokenHash })
        .execute();
      return affected ? 'changed' : 'spent';
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  /** Sets the password in `transaction`, voids every outstanding link and raises token_version; the new version. */
  changePassword(transaction: Transaction, id: number, passwordHash: string): Promise<number> {
    return this.raiseTokenVersion(transaction, id, { password_hash: passwordHash, ...NO_OUTSTANDING_LINKS });
  }

  async raiseTokenVersion(transaction: Transaction, id: number, fields: Partial<UserEntity> = {}): Promise<number> {
    await managerOf(transaction)
      .createQueryBuilder()
      .update(UserEntity)
      .set({ ...fields, token_version: () => 'token_version + 1' })
      .where('id = :id', { id })
      .execute();
    const { token_version } = await managerOf(transaction).findOneOrFail(UserEntity, {
      where: { id },
      select: { id: true, token_version: true },
    });
    return token_version;
  }

  async counts(before: Date): Promise<UserCounts> {
    // Every user read: off the event loop on SQLite (OffLoopReads).
    const [row] = await OffLoopReads.for(this.users.manager.connection).rows<
      Record<'total' | 'active' | 'verified' | 'total_before', string | number | null>
    >(
      this.users
        .createQueryBuilder('u')
        .select('COUNT(*)', 'total')
        .addSelect('SUM(CASE WHEN u.is_active = :yes THEN 1 ELSE 0 END)', 'active')
        .addSelect('SUM(CASE WHEN u.is_verified = :yes THEN 1 ELSE 0 END)', 'verified')
        .addSelect('SUM(CASE WHEN u.created_at < :before THEN 1 ELSE 0 END)', 'total_before')
        .setParameters({ yes: true, before }),
    );
    return {
      total: Number(row?.total ?? 0),
      active: Number(row?.active ?? 0),
      verified: Number(row?.verified ?? 0),
      total_before: Number(row?.total_before ?? 0),
    };
  }
}
