import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { ApiError } from '../../common/api-error';
import { OffLoopReads } from '../../database/off-loop-reads';
import { Page, sortColumn } from '../../common/pagination';
import { counterOf, engineOf, readPageByIds, whereSearch } from '../../database/pages';
import { ListTotals } from '../../common/list-totals';
import type { AuthUser } from '../../common/current-user.decorator';
import { UserType, userTypeOf } from './dto/admin-user.dto';
import { CreateUserDto, UpdateUserDto } from './dto/user-form.dto';
import { ListUsersQueryDto, UserSortKey } from './dto/list-users-query.dto';
import { PasswordHasher } from './password-hasher';
import { USER_TRIGRAMS_TABLE, UserTrigrams } from './user-trigrams';
import { UserEntity, UserRole } from './user.entity';
import { EntityRows } from '../../database/entity-rows';

// What other modules use of users, through this service.
export type { UserEntity } from './user.entity';
export { PasswordHasher } from './password-hasher';

export const DUPLICATE_EMAIL = 'This email is already registered.';

const SORT_COLUMNS: Record<UserSortKey, string[]> = {
  name: ['u.first_name', 'u.last_name'],
  email: ['u.email'],
  role: ['u.role'],
  status: ['u.is_active'],
  is_verified: ['u.is_verified'],
  last_login: ['u.last_login'],
  created_at: ['u.created_at'],
};

export interface NewAccount {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  company?: string | null;
  phone?: string | null;
  country?: string | null;
  role?: UserRole;
  is_active?: boolean;
  is_verified?: boolean;
}

export type UserPage = Page<UserEntity> & { overallTotal: number };

/** What a user may change of their own account on the profile page. */
export interface ProfileFields {
  first_name: string;
  last_name: string;
  company?: string | null;
  phone?: string | null;
  country?: string | null;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Every link of an account still waiting to be opened: a password reset, a change of e-mail address, an address
 * confirmation. A password reset or change and a confirmed new address void them all, so a link mailed before (to
 * an old address, or asked for by someone who knew the old password) cannot undo what the owner just did.
 */
const NO_OUTSTANDING_LINKS = {
  password_reset_token_hash: null,
  password_reset_expires: null,
  pending_email: null,
  pending_email_token_hash: null,
  pending_email_expires: null,
  verification_token_hash: null,
  verification_token_expires: null,
} as const;

/** The address an account was about to move to, while its link still works; null when none was pending. */
export function pendingEmailOf(user: UserEntity): string | null {
  return user.pending_email && user.pending_email_expires && user.pending_email_expires.getTime() > Date.now() ? user.pending_email : null;
}

@Injectable()
export class UsersService {
  /** The search's trigram postings on MySQL/MariaDB (see UserTrigrams). */
  private readonly trigrams: UserTrigrams;

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly hasher: PasswordHasher,
  ) {
    this.trigrams = new UserTrigrams(users.manager.connection);
  }

  /**
   * The admin list's totals; dropped when an account is added, removed or changes in a way the filters see (every
   * such write is in this service), so an exact total is also kept for a few seconds (a search paged through, or
   * asked again, counts its matches once).
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);

  /** The admin list; every sort and filter has an index, totals are exact up to EXACT_TOTAL_CAP (ListTotals). */
  async list(query: ListUsersQueryDto): Promise<UserPage> {
    const qb = this.users.createQueryBuilder('u');
    // Free text in e-mail and name, `LIKE '%…%'`, only among the users a trigram index finds for the term (terms of
    // 3 characters or more): on SQLite the FTS5 table's phrase query (the term's trigrams in a row, in any case: every
    // row the LIKE finds, and in half the time of FTS5's own LIKE, which reads each candidate's text again), on
    // MySQL/MariaDB the postings of the term's rarest trigram when it is rare enough (else the list's order).
    whereSearch(qb, ['u.email', "CONCAT(u.first_name, ' ', u.last_name)"], query.search);
    const term = query.search?.trim();
    // Characters, not UTF-16 units: a phrase of fewer than 3 has no trigram and would match nothing. FTS5's query
    // parser ends a string at NUL (a syntax error): such a term is left to the LIKE alone.
    if (term && [...term].length >= 3 && !term.includes('\0') && engineOf(qb) === 'sqlite')
      qb.andWhere('u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH :phrase)', { phrase: `"${term.replace(/"/g, '""')}"` });
    const rarest = term ? await this.trigrams.rarest(term) : null;
    if (rarest) qb.andWhere(`u.id IN (SELECT t.user_id FROM ${USER_TRIGRAMS_TABLE} t WHERE t.trigram = :trigram)`, { trigram: rarest });
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
        { cache: this.totals, key, count },
        (ids) => EntityRows.of(this.users).byIds(ids),
      ),
      this.totals.total('all', counterOf(this.users.createQueryBuilder('u'))),
    ]);
    return { ...found, overallTotal };
  }

  /**
   * Saves a user; the list's totals count anew (a filter or search may see the change). `searchedText`: the e-mail or
   * name may have changed, so the search's trigram postings are rewritten (a status change leaves them as they are).
   */
  private async saved(user: UserEntity, searchedText = false): Promise<UserEntity> {
    const stored = await this.users.save(user);
    this.totals.clear();
    if (searchedText) await this.trigrams.keep(stored.id);
    return stored;
  }

  async get(id: number): Promise<UserEntity> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw ApiError.notFound(`User ${id} not found`);
    return user;
  }

  find(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ email: email.trim().toLowerCase() });
  }

  countByRole(role: UserRole): Promise<number> {
    return this.users.countBy({ role });
  }

  /** Creates an account; a taken e-mail is a 409 with `errors.email`, also when two requests race. */
  async createAccount(account: NewAccount): Promise<UserEntity> {
    const email = account.email.trim().toLowerCase();
    // Hash first, taken address or not, so the answer's timing does not tell which addresses have accounts.
    const [taken, passwordHash] = await Promise.all([this.users.existsBy({ email }), this.hasher.hash(account.password)]);
    if (taken) throw duplicateEmail();
    const user = this.users.create({
      email,
      password_hash: passwordHash,
      first_name: account.first_name ?? '',
      last_name: account.last_name ?? '',
      company: account.company || null,
      phone: account.phone || null,
      country: account.country || null,
      role: account.role ?? 'client',
      is_active: account.is_active ?? true,
      is_verified: account.is_verified ?? false,
      email_verified_at: account.is_verified ? new Date() : null,
    });
    try {
      return await this.saved(user, true);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }

  create(dto: CreateUserDto): Promise<UserEntity> {
    return this.createAccount({ ...dto, role: dto.role ?? dto.user_type ?? 'client' });
  }

  async update(id: number, dto: UpdateUserDto, actor: AuthUser): Promise<UserEntity> {
    const user = await this.get(id);
    const role = dto.role ?? roleForType(user.role, dto.user_type);
    if (user.id === actor.id) {
      if (dto.is_active === false) throw ApiError.forbidden('You cannot deactivate your own account.');
      if (role !== 'admin') throw ApiError.forbidden('You cannot remove your own admin role.');
    }
    if (dto.email && dto.email !== user.email && (await this.users.existsBy({ email: dto.email }))) throw duplicateEmail();

    // A new password or role, or a deactivation, ends every session: a session carries the rights of the role it
    // began under (and, for an admin, the second factor it passed), never those of a role given later.
    let revokeSessions = role !== user.role;
    if (dto.password) {
      user.password_hash = await this.hasher.hash(dto.password);
      revokeSessions = true;
    }
    // Links mailed before a new password or address were sent for the old ones.
    if (dto.password || (dto.email && dto.email !== user.email)) Object.assign(user, NO_OUTSTANDING_LINKS);
    if (dto.is_active === false && user.is_active) revokeSessions = true;
    if (dto.is_verified === true && !user.is_verified) this.markVerified(user);
    if (dto.is_verified === false) {
      user.is_verified = false;
      user.email_verified_at = null;
    }
    Object.assign(user, {
      email: dto.email ?? user.email,
      first_name: dto.first_name ?? user.first_name,
      last_name: dto.last_name ?? user.last_name,
      company: dto.company === undefined ? user.company : dto.company || null,
      phone: dto.phone === undefined ? user.phone : dto.phone || null,
      country: dto.country === undefined ? user.country : dto.country || null,
      role,
      is_active: dto.is_active ?? user.is_active,
    });
    if (revokeSessions) user.token_version += 1;
    try {
      return await this.saved(user, true);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }

  async remove(id: number, actor: AuthUser): Promise<void> {
    if (id === actor.id) throw ApiError.forbidden('You cannot delete your own account.');
    const result = await this.users.delete({ id });
    this.totals.clear();
    if (!result.affected) throw ApiError.notFound(`User ${id} not found`);
  }

  async toggleStatus(id: number, actor: AuthUser): Promise<UserEntity> {
    const user = await this.get(id);
    if (user.id === actor.id && user.is_active) throw ApiError.forbidden('You cannot deactivate your own account.');
    user.is_active = !user.is_active;
    // Deactivation ends every session at once; reactivation must not revive them.
    user.token_version += 1;
    return this.saved(user);
  }

  async verifyEmail(id: number): Promise<UserEntity> {
    const user = await this.get(id);
    if (!user.is_verified) this.markVerified(user);
    return this.saved(user);
  }

  /** Issues a fresh one-time verification token; only its hash is stored. */
  async issueVerificationToken(user: UserEntity, ttlSeconds: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.users.update(
      { id: user.id },
      { verification_token_hash: hashToken(token), verification_token_expires: new Date(Date.now() + ttlSeconds * 1000) },
    );
    return token;
  }

  /** Verifies the account holding this token, once; an expired or used token finds nothing. */
  async consumeVerificationToken(token: string): Promise<UserEntity | null> {
    const user = await this.users.findOneBy({ verification_token_hash: hashToken(token) });
    if (!user || !user.verification_token_expires || user.verification_token_expires.getTime() < Date.now()) return null;
    this.markVerified(user);
    return this.saved(user);
  }

  /** Issues a fresh one-time password-reset token, replacing any pending one; only its hash is stored. */
  async issuePasswordResetToken(id: number, ttlSeconds: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.users.update(
      { id },
      { password_reset_token_hash: hashToken(token), password_reset_expires: new Date(Date.now() + ttlSeconds * 1000) },
    );
    return token;
  }

  /**
   * Sets a new password on the active account holding this reset token, once: the token is spent with every other
   * outstanding link (a pending e-mail change among them), every session ends (token_version), and the address counts
   * as verified, since the mailed link proved it. Null for an unknown, used or expired token. `voidedEmail`: the
   * address a pending change would have moved the account to.
   */
  async resetPassword(token: string, password: string): Promise<{ user: UserEntity; voidedEmail: string | null } | null> {
    const tokenHash = hashToken(token);
    const user = await this.users.findOneBy({ password_reset_token_hash: tokenHash });
    if (!user || !user.is_active || !user.password_reset_expires || user.password_reset_expires.getTime() <= Date.now()) return null;
    const passwordHash = await this.hasher.hash(password);
    // Only while the token is still there: two requests racing with one link change the password once.
    const { affected } = await this.users
      .createQueryBuilder()
      .update(UserEntity)
      .set({
        password_hash: passwordHash,
        ...NO_OUTSTANDING_LINKS,
        token_version: () => 'token_version + 1',
        ...(user.is_verified ? {} : { is_verified: true, email_verified_at: new Date() }),
      })
      .where('id = :id AND password_reset_token_hash = :tokenHash', { id: user.id, tokenHash })
      .execute();
    if (!affected) return null;
    if (!user.is_verified) this.totals.clear();
    return { user: await this.get(user.id), voidedEmail: pendingEmailOf(user) };
  }

  /** The user's own names and contact details; an empty optional field is stored as none. */
  async updateProfile(id: number, profile: ProfileFields): Promise<UserEntity> {
    const user = await this.get(id);
    Object.assign(user, {
      first_name: profile.first_name,
      last_name: profile.last_name,
      company: profile.company || null,
      phone: profile.phone || null,
      country: profile.country || null,
    });
    return this.saved(user, true);
  }

  /**
   * Sets a new password inside the caller's transaction, voids every outstanding link (reset, e-mail change,
   * confirmation) and raises token_version (so every other session and any sign-in challenge in flight dies);
   * returns the new version.
   */
  async changePassword(manager: EntityManager, id: number, password: string): Promise<number> {
    const passwordHash = await this.hasher.hash(password);
    await manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ password_hash: passwordHash, ...NO_OUTSTANDING_LINKS, token_version: () => 'token_version + 1' })
      .where('id = :id', { id })
      .execute();
    return this.tokenVersionOf(manager, id);
  }

  /**
   * Raises token_version inside the caller's transaction, so every session of the account ends but those the
   * caller carries over; returns the new version.
   */
  async raiseTokenVersion(manager: EntityManager, id: number): Promise<number> {
    await manager
      .createQueryBuilder()
      .update(UserEntity)
      .set({ token_version: () => 'token_version + 1' })
      .where('id = :id', { id })
      .execute();
    return this.tokenVersionOf(manager, id);
  }

  private async tokenVersionOf(manager: EntityManager, id: number): Promise<number> {
    const { token_version } = await manager.findOneOrFail(UserEntity, { where: { id }, select: { id: true, token_version: true } });
    return token_version;
  }

  /**
   * Keeps `email` as the user's next address until the link mailed to it is opened; returns the link's token (only
   * its hash is stored). A taken address is a 409 with `errors.email`.
   */
  async requestEmailChange(id: number, email: string, ttlSeconds: number): Promise<string> {
    if (await this.users.existsBy({ email })) throw duplicateEmail();
    const token = randomBytes(32).toString('base64url');
    await this.users.update(
      { id },
      { pending_email: email, pending_email_token_hash: hashToken(token), pending_email_expires: new Date(Date.now() + ttlSeconds * 1000) },
    );
    return token;
  }

  /**
   * Makes the pending address the account's own, once, with the token from the link: it counts as verified, since
   * the link proved it, and every other outstanding link (a reset mailed to the old address) is void. Null for an
   * unknown, used or expired token; 409 when someone took the address meanwhile.
   */
  async confirmEmailChange(token: string): Promise<{ user: UserEntity; previousEmail: string } | null> {
    const tokenHash = hashToken(token);
    const user = await this.users.findOneBy({ pending_email_token_hash: tokenHash });
    if (!user?.pending_email || !user.is_active || !user.pending_email_expires || user.pending_email_expires.getTime() <= Date.now())
      return null;
    const previousEmail = user.email;
    try {
      const { affected } = await this.users
        .createQueryBuilder()
        .update(UserEntity)
        .set({ email: user.pending_email, ...NO_OUTSTANDING_LINKS, is_verified: true, email_verified_at: new Date() })
        .where('id = :id AND pending_email_token_hash = :tokenHash', { id: user.id, tokenHash })
        .execute();
      if (!affected) return null;
      this.totals.clear();
      await this.trigrams.keep(user.id);
      return { user: await this.get(user.id), previousEmail };
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail();
      throw error;
    }
  }

  /** Accounts in all, active, verified, and how many existed at `before` (for the dashboard's previous period). */
  async counts(before: Date): Promise<{ total: number; active: number; verified: number; total_before: number }> {
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

  async recordLogin(id: number): Promise<void> {
    await this.users.update({ id }, { last_login: new Date() });
  }

  /** Creates the admin if the e-mail is free; never touches an existing account. Returns whether it created one. */
  async ensureAdmin(email: string, password: string): Promise<boolean> {
    if (await this.findByEmail(email)) return false;
    await this.createAccount({ email, password, first_name: 'Admin', role: 'admin', is_active: true, is_verified: true });
    return true;
  }

  private markVerified(user: UserEntity): void {
    user.is_verified = true;
    user.email_verified_at = new Date();
    user.verification_token_hash = null;
    user.verification_token_expires = null;
  }
}

// The form only knows client and admin: keeping the same type keeps a finer role such as moderator.
function roleForType(current: UserRole, type?: UserType): UserRole {
  if (!type || type === userTypeOf(current)) return current;
  return type;
}

function duplicateEmail(): ApiError {
  return ApiError.conflict(DUPLICATE_EMAIL, { email: [DUPLICATE_EMAIL] });
}
