import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { AfterResponse } from '../../common/after-response';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { RateLimit, RateLimits } from '../../common/rate-limit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Transactions } from '../../database/transactions';
import { MailService } from '../mail/mail.service';
import { userTypeOf } from '../users/dto/admin-user.dto';
import type { UserEntity } from '../users/users.service';
import { UserProfileService } from '../users/user-profile.service';
import { PasswordHasher, pendingEmailOf, UsersService } from '../users/users.service';
import { forHowLong, letter, LINK_MAILS_PER_WINDOW, passwordChangedMail } from './mails';
import { ChangeEmailDto, ChangePasswordDto, ProfileDto, SessionDto, UpdateProfileDto } from './dto/account.dto';
import { WRONG_PASSWORD } from './mfa.service';
import { SessionsService } from './sessions.service';

const TOO_MANY_WRONG_PASSWORDS = 'Too many wrong passwords. Please try again in {minutes} minutes.';
const TOO_MANY_EMAIL_CHANGES = 'Too many e-mail changes requested. Please try again in {minutes} minutes.';
export const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired.';
const SAME_EMAIL = 'This is already your e-mail address.';

/**
 * The signed-in user's own account: names and contact details, password, e-mail address (in effect once the new
 * address confirms it), and the places they are signed in. Changes that need the password count wrong passwords
 * per account, so a stolen session cannot guess it.
 */
@Injectable()
export class AccountService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Account');
  private readonly afterResponse = new AfterResponse(this.logger);
  private readonly wrongPasswords: RateLimit;
  private readonly emailChanges: RateLimit;

  constructor(
    private readonly users: UsersService,
    private readonly profiles: UserProfileService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    limits: RateLimits,
  ) {
    const { windowSeconds, loginFailuresPerAccount } = config.throttle;
    this.wrongPasswords = limits.create({ name: 'account-password', limit: loginFailuresPerAccount, windowSeconds });
    this.emailChanges = limits.create({ name: 'account-email-change', limit: LINK_MAILS_PER_WINDOW, windowSeconds });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.afterResponse.drain();
  }

  async profile(userId: number): Promise<ProfileDto> {
    return toProfile(await this.users.get(userId));
  }

  async updateProfile(userId: number, dto: UpdateProfileDto): Promise<ProfileDto> {
    return toProfile(await this.profiles.updateProfile(userId, dto));
  }

  /** A new password, with the current one: every other session ends, this one stays; a notice goes to the address. */
  async changePassword(user: AuthUser, dto: ChangePasswordDto): Promise<number> {
    const account = await this.checkPassword(user.id, dto.current_password);
    const ended = await this.transactions.run(async (transaction) => {
      const tokenVersion = await this.users.changePassword(transaction, user.id, dto.password);
      return this.sessions.keepOnly(transaction, user.id, user.sessionId, tokenVersion);
    });
    const how = 'from its profile page, and every other device signed in to it was signed out';
    this.afterResponse.run('Password changed mail', () =>
      this.mail.send(passwordChangedMail(account, how, pendingEmailOf(account), this.config.publicUrl)),
    );
    return ended;
  }

  /** Mails a confirmation link to the new address (the change waits for it) and a notice to the current one. */
  async requestEmailChange(userId: number, dto: ChangeEmailDto): Promise<ProfileDto> {
    const account = await this.checkPassword(userId, dto.current_password);
    if (dto.email === account.email) throw ApiError.badRequest(SAME_EMAIL, { email: [SAME_EMAIL] });
    await this.emailChanges.take(String(userId), TOO_MANY_EMAIL_CHANGES);
    const ttl = this.config.verificationTokenTtlSeconds;
    const token = await this.users.requestEmailChange(userId, dto.email, ttl);
    const name = account.first_name || account.email;
    this.afterResponse.run('E-mail change mails', async () => {
      await this.mail.send(
        letter(dto.email, 'Confirm your new e-mail address', name, [
          'Please confirm that this is the new e-mail address of your StreamHub account:\n' +
            `${this.config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`,
          `The link works once and expires in ${forHowLong(ttl)}. Until then you sign in with ${account.email}. If you did not ask for this, ignore this message.`,
        ]),
      );
      await this.mail.send(
        letter(account.email, 'A new e-mail address was requested for your account', name, [
          `Someone signed in to your StreamHub account asked to change its e-mail address to ${dto.email}. It changes once the link mailed there is opened.`,
          `If this was not you, change your password at once (${this.config.publicUrl}/forgot-password) and tell us.`,
        ]),
      );
    });
    return toProfile(await this.users.get(userId));
  }

  /** The new address becomes the account's own, with the token from the link mailed to it (once). */
  async confirmEmailChange(token: string): Promise<UserEntity> {
    const changed = await this.users.confirmEmailChange(token);
    if (!changed) throw ApiError.badRequest(EMAIL_LINK_INVALID);
    const { user, previousEmail } = changed;
    this.afterResponse.run('E-mail changed mail', () =>
      this.mail.send(
        letter(previousEmail, 'Your e-mail address was changed', user.first_name || previousEmail, [
          `The e-mail address of your StreamHub account is now ${user.email}; sign in with it from now on. Links mailed before (password reset) no longer work.`,
          `If this was not you, tell us at once.`,
        ]),
      ),
    );
    return user;
  }

  async listSessions(user: AuthUser): Promise<SessionDto[]> {
    return (await this.sessions.list(user.id)).map((session) => ({ ...session, current: session.id === user.sessionId }));
  }

  async endSession(user: AuthUser, sessionId: string): Promise<void> {
    if (!(await this.sessions.endOwn(user.id, sessionId))) throw ApiError.notFound('Session not found');
  }

  endOtherSessions(user: AuthUser): Promise<number> {
    return this.sessions.endAllOf(user.id, user.sessionId);
  }

  /** The account when `password` is its password; otherwise 400 on `current_password`, and a count toward 429. */
  private async checkPassword(userId: number, password: string): Promise<UserEntity> {
    const key = String(userId);
    await this.wrongPasswords.assertUnder(key, TOO_MANY_WRONG_PASSWORDS);
    const account = await this.users.get(userId);
    if (await this.hasher.verify(account.password_hash, password)) return account;
    await this.wrongPasswords.hit(key);
    throw ApiError.badRequest(WRONG_PASSWORD, { current_password: [WRONG_PASSWORD] });
  }
}

function toProfile(user: UserEntity): ProfileDto {
  const pending = pendingEmailOf(user);
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    company: user.company,
    phone: user.phone,
    country: user.country,
    user_type: userTypeOf(user.role),
    pending_email: pending,
    pending_email_expires: pending ? user.pending_email_expires : null,
  };
}
