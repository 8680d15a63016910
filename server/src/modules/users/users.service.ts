import type { Channel } from '../../common/channels';
import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { notify, USER_CHANGED } from '../../common/events';
import type { Transaction } from '../../database/transactions';
import { PasswordHasher } from './password-hasher';
import { UserTrigramsRepository } from './user-trigrams.repository';
import { UserEntity, UserRole } from './user.entity';
import { UsersRepository } from './users.repository';

// What other modules use of users, through this service.
export type { UserEntity } from './user.entity';
export { PasswordHasher } from './password-hasher';

export const DUPLICATE_EMAIL = 'This email is already registered.';

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
  /** The release channel granted to all the customer's licenses (default stable). */
  channel?: Channel;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The address an account was about to move to, while its link still works; null when none was pending. */
export function pendingEmailOf(user: UserEntity): string | null {
  return user.pending_email && user.pending_email_expires && user.pending_email_expires.getTime() > Date.now() ? user.pending_email : null;
}

/** A taken e-mail address: 409 with `errors.email`. */
export function duplicateEmail(): ApiError {
  return ApiError.conflict(DUPLICATE_EMAIL, { email: [DUPLICATE_EMAIL] });
}

/** Marks the address verified (its verification link is spent). */
export function markVerified(user: UserEntity): void {
  user.is_verified = true;
  user.email_verified_at = new Date();
  user.verification_token_hash = null;
  user.verification_token_expires = null;
}

/** Writes the admin list's filters or search see are announced (USER_CHANGED), so its totals count anew. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly trigrams: UserTrigramsRepository,
    private readonly hasher: PasswordHasher,
    private readonly events: EventEmitter2,
  ) {}

  async get(id: number): Promise<UserEntity> {
    return ApiError.orNotFound(await this.users.findById(id), `User ${id} not found`);
  }

  find(id: number): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByEmail(email.trim().toLowerCase());
  }

  /** Creates an account; a taken e-mail is a 409 with `errors.email`, also when two requests race. */
  async createAccount(account: NewAccount): Promise<UserEntity> {
    const email = account.email.trim().toLowerCase();
    // Hash first, taken address or not, so the response's timing does not tell which addresses have accounts.
    const [taken, passwordHash] = await Promise.all([this.users.emailTaken(email), this.hasher.hash(account.password)]);
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
      channel: account.channel ?? 'stable',
      is_active: account.is_active ?? true,
      is_verified: account.is_verified ?? false,
      email_verified_at: account.is_verified ? new Date() : null,
    });
    const stored = await this.users.saveUnlessEmailTaken(user);
    if (!stored) throw duplicateEmail();
    await this.announceChange(stored.id, true);
    return stored;
  }

  /** Creates the admin if the e-mail is free; never touches an existing account. Returns whether it created one. */
  async ensureAdmin(email: string, password: string): Promise<boolean> {
    if (await this.findByEmail(email)) return false;
    await this.createAccount({ email, password, first_name: 'Admin', role: 'admin', is_active: true, is_verified: true });
    return true;
  }

  async recordLogin(id: number): Promise<void> {
    await this.users.recordLogin(id, new Date());
  }

  /** Issues a fresh one-time verification token; only its hash is stored. */
  async issueVerificationToken(user: UserEntity, ttlSeconds: number): Promise<string> {
    const token = newToken();
    await this.users.setVerificationToken(user.id, hashToken(token), expiresIn(ttlSeconds));
    return token;
  }

  /** Verifies the account holding this token, once; an expired or used token finds nothing. */
  async consumeVerificationToken(token: string): Promise<UserEntity | null> {
    const user = await this.users.findByVerificationToken(hashToken(token));
    if (!user || !user.verification_token_expires || user.verification_token_expires.getTime() < Date.now()) return null;
    markVerified(user);
    const stored = await this.users.save(user);
    await this.announceChange(stored.id);
    return stored;
  }

  /** Issues a fresh one-time password-reset token, replacing any pending one; only its hash is stored. */
  async issuePasswordResetToken(id: number, ttlSeconds: number): Promise<string> {
    const token = newToken();
    await this.users.setPasswordResetToken(id, hashToken(token), expiresIn(ttlSeconds));
    return token;
  }

  /**
   * Spends the token with every other outstanding link (a pending e-mail change too: `voidedEmail`) and ends every session; the
   * address counts as verified, since the mailed link proved it.
   */
  async resetPassword(token: string, password: string): Promise<{ user: UserEntity; voidedEmail: string | null } | null> {
    const tokenHash = hashToken(token);
    const user = await this.users.findByPasswordResetToken(tokenHash);
    if (!user || !user.is_active || !user.password_reset_expires || user.password_reset_expires.getTime() <= Date.now()) return null;
    const passwordHash = await this.hasher.hash(password);
    if (!(await this.users.resetPassword(user.id, tokenHash, passwordHash, !user.is_verified))) return null;
    if (!user.is_verified) await this.announceChange(user.id);
    return { user: await this.get(user.id), voidedEmail: pendingEmailOf(user) };
  }

  /** Voids every outstanding link and raises token_version, so every other session and any sign-in challenge in flight dies. */
  async changePassword(transaction: Transaction, id: number, password: string): Promise<number> {
    return this.users.changePassword(transaction, id, await this.hasher.hash(password));
  }

  /** Raises token_version inside the caller's transaction: every session ends but those the caller carries over. */
  raiseTokenVersion(transaction: Transaction, id: number): Promise<number> {
    return this.users.raiseTokenVersion(transaction, id);
  }

  /** `email` becomes the address only once the link mailed to it is opened; only the token's hash is stored. */
  async requestEmailChange(id: number, email: string, ttlSeconds: number): Promise<string> {
    if (await this.users.emailTaken(email)) throw duplicateEmail();
    const token = newToken();
    await this.users.setPendingEmail(id, email, hashToken(token), expiresIn(ttlSeconds));
    return token;
  }

  /** Verified, since the link proved it; every other outstanding link (a reset mailed to the old address) is void. */
  async confirmEmailChange(token: string): Promise<{ user: UserEntity; previousEmail: string } | null> {
    const tokenHash = hashToken(token);
    const user = await this.users.findByPendingEmailToken(tokenHash);
    if (!user?.pending_email || !user.is_active || !user.pending_email_expires || user.pending_email_expires.getTime() <= Date.now())
      return null;
    const confirmed = await this.users.confirmPendingEmail(user.id, tokenHash, user.pending_email);
    if (confirmed === 'taken') throw duplicateEmail();
    if (confirmed === 'spent') return null;
    await this.announceChange(user.id, true);
    return { user: await this.get(user.id), previousEmail: user.email };
  }

  /** A change the admin list's filters see; `searchedText`: the e-mail or name may have changed (trigrams rewritten). */
  async announceChange(userId: number, searchedText = false): Promise<void> {
    notify(this.events, USER_CHANGED, { userId });
    if (searchedText) await this.trigrams.rewrite(userId);
  }
}

const newToken = () => randomBytes(32).toString('base64url');
const expiresIn = (ttlSeconds: number) => new Date(Date.now() + ttlSeconds * 1000);
