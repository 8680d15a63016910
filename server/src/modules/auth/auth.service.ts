import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { AfterResponse } from '../../common/after-response';
import { ApiError } from '../../common/api-error';
import { RateLimit, RateLimits } from '../../common/rate-limit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MailService } from '../mail/mail.service';
import { PasswordHasher } from '../users/users.service';
import type { UserEntity } from '../users/users.service';
import { UsersService } from '../users/users.service';
import { LoginThrottle } from './login-throttle';
import { forHowLong, letter, LINK_MAILS_PER_WINDOW, passwordChangedMail } from './mails';
import { AdminEnrolledSessionDto, AdminSessionDataDto, LoginDto, LoginResponseDto, MfaChallengeDto, RegisterDto } from './dto/auth.dto';
import { MfaChallenge, MfaChallenges } from './mfa-challenges';
import { MfaProof, MfaService } from './mfa.service';
import { toSessionUser } from './session-user';
import { SessionsService } from './sessions.service';

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

/**
 * One response for every sign-in that fails before the password is proven (unknown address, inactive account, wrong
 * password, a customer at the admin door), so the response never tells which addresses have accounts.
 */
export const LOGIN_FAILED = {
  client: 'Invalid email or password. Please try again.',
  admin: 'Invalid admin credentials or insufficient permissions',
};
// Only shown once the password is right.
const UNVERIFIED = {
  client: 'Account not verified. Please check your email.',
  admin: 'Admin account not verified. Please check your email.',
};
export const USE_ADMIN_DOOR = 'This account signs in with two-factor authentication at the admin sign-in.';
const TOO_MANY_REGISTRATIONS = 'Too many registration attempts. Please try again in {minutes} minutes.';
const TOO_MANY_VERIFICATION_MAILS = 'Too many verification e-mails requested. Please try again in {minutes} minutes.';
export const VERIFICATION_SENT = 'Registration successful! Please check your email to verify your account.';
export const RESEND_RESPONSE = 'If an unverified account exists for this address, a new verification e-mail has been sent.';
export const FORGOT_RESPONSE = 'If an account exists for this address, we have sent it a link to reset the password.';
export const RESET_DONE = 'Your password has been changed. Please log in with your new password.';
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired.';
const TOO_MANY_RESET_MAILS = 'Too many password reset requests. Please try again in {minutes} minutes.';

@Injectable()
export class AuthService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Auth');
  private readonly registrationsPerIp: RateLimit;
  private readonly verificationMailsPerAddress: RateLimit;
  private readonly resetRequestsPerIp: RateLimit;
  private readonly resetMailsPerAddress: RateLimit;
  private readonly afterResponse = new AfterResponse(this.logger);

  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    private readonly loginThrottle: LoginThrottle,
    private readonly mfa: MfaService,
    private readonly challenges: MfaChallenges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    limits: RateLimits,
  ) {
    const { windowSeconds, registrationsPerIp } = config.throttle;
    this.registrationsPerIp = limits.create({ name: 'registrations-ip', limit: registrationsPerIp, windowSeconds });
    this.verificationMailsPerAddress = limits.create({ name: 'verification-mails', limit: LINK_MAILS_PER_WINDOW, windowSeconds });
    this.resetRequestsPerIp = limits.create({ name: 'password-reset-ip', limit: registrationsPerIp, windowSeconds });
    this.resetMailsPerAddress = limits.create({ name: 'password-reset-mails', limit: LINK_MAILS_PER_WINDOW, windowSeconds });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.afterResponse.drain();
  }

  async register(dto: RegisterDto, client: ClientInfo): Promise<{ user: UserEntity; mailSent: boolean }> {
    await this.registrationsPerIp.take(client.ip, TOO_MANY_REGISTRATIONS);
    const user = await this.users.createAccount({
      email: dto.email,
      password: dto.password,
      first_name: dto.first_name,
      last_name: dto.last_name,
    });
    await this.verificationMailsPerAddress.hit(user.email);
    return { user, mailSent: await this.sendVerificationMail(user) };
  }

  async resendVerification(email: string, client: ClientInfo): Promise<void> {
    await this.registrationsPerIp.take(client.ip, TOO_MANY_REGISTRATIONS);
    await this.verificationMailsPerAddress.take(email, TOO_MANY_VERIFICATION_MAILS);
    const user = await this.users.findByEmail(email);
    if (user && user.is_active && !user.is_verified) await this.sendVerificationMail(user);
  }

  /** The account whose address the token confirms. */
  async verifyEmail(token: string): Promise<UserEntity> {
    const user = await this.users.consumeVerificationToken(token);
    if (!user) throw ApiError.badRequest('This verification link is invalid or has expired.');
    return user;
  }

  /** Everything that depends on the account runs after the response, so neither it nor its timing tells whether one exists. */
  async forgotPassword(email: string, client: ClientInfo): Promise<void> {
    await this.resetRequestsPerIp.take(client.ip, TOO_MANY_RESET_MAILS);
    await this.resetMailsPerAddress.take(email, TOO_MANY_RESET_MAILS);
    this.afterResponse.run('Password reset mail', () => this.sendResetMail(email));
  }

  /** Sets the new password with a reset token, once; every session and every other mailed link of the account ends. */
  async resetPassword(token: string, password: string): Promise<UserEntity> {
    const reset = await this.users.resetPassword(token, password);
    if (!reset) throw ApiError.badRequest(RESET_LINK_INVALID);
    const { user, voidedEmail } = reset;
    await this.sessions.endAllOf(user.id);
    const how = 'through a reset link, and every device signed in to it was signed out';
    this.afterResponse.run('Password changed mail', () =>
      this.mail.send(passwordChangedMail(user, how, voidedEmail, this.config.publicUrl)),
    );
    return user;
  }

  async login(dto: LoginDto, client: ClientInfo): Promise<LoginResponseDto> {
    const user = await this.checkCredentials(dto, client, 'client');
    if (!user.is_verified) throw ApiError.forbidden(UNVERIFIED.client);
    // An admin whose sign-in takes a second factor gets no session by the door that asks for none.
    if (user.role === 'admin' && (this.mfa.required || (await this.mfa.isEnabled(user.id)))) throw ApiError.forbidden(USE_ADMIN_DOOR);
    return { token: await this.startSession(user, client), user: toSessionUser(user) };
  }

  /** With two-factor sign-in (or ADMIN_REQUIRE_MFA) the response is a challenge for the second step, and no session yet. */
  async adminLogin(dto: LoginDto, client: ClientInfo): Promise<AdminSessionDataDto | MfaChallengeDto> {
    const user = await this.checkCredentials(dto, client, 'admin');
    if (!user.is_verified) throw ApiError.forbidden(UNVERIFIED.admin);
    if (await this.mfa.isEnabled(user.id)) return { mfa: 'verify', mfa_token: await this.challenges.issue(user, 'verify') };
    if (this.mfa.required) return { mfa: 'enroll', mfa_token: await this.challenges.issue(user, 'enroll') };
    return this.adminSession(user, client);
  }

  /** A second-step token and the admin it was issued to (401 when it has expired, was spent, or no longer fits the account). */
  mfaChallenge(token: string, stage: 'verify' | 'enroll'): Promise<MfaChallenge> {
    return this.challenges.read(token, stage);
  }

  /** The second step: a code or a recovery code, then the session; the challenge gives no other. */
  async completeAdminLogin(challenge: MfaChallenge, proof: MfaProof, client: ClientInfo): Promise<AdminSessionDataDto> {
    await this.mfa.verify(challenge.user, proof, client.ip);
    await this.challenges.spend(challenge);
    return this.adminSession(challenge.user, client, true);
  }

  /** Every earlier session ends; enrolment happens once, so the challenge cannot give a second session. */
  async completeAdminEnrolment(challenge: MfaChallenge, code: string, client: ClientInfo): Promise<AdminEnrolledSessionDto> {
    const recoveryCodes = await this.mfa.completeEnrolment(challenge.user, code, client.ip, null);
    const user = await this.users.get(challenge.user.id);
    return { ...(await this.adminSession(user, client, true)), recovery_codes: recoveryCodes };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId);
  }

  /** Every failure costs the same argon2 work, gets the same response, and counts against this address and the account. */
  private async checkCredentials(dto: LoginDto, client: ClientInfo, door: 'client' | 'admin'): Promise<UserEntity> {
    const email = dto.email.trim().toLowerCase();
    await this.loginThrottle.assertMayTry(email, client.ip);
    const user = await this.users.findByEmail(email);
    const passwordRight = user ? await this.hasher.verify(user.password_hash, dto.password) : await this.hasher.verifyNothing(dto.password);
    if (!user || !passwordRight || !user.is_active || (door === 'admin' && user.role !== 'admin')) {
      await this.loginThrottle.recordFailure(email, client.ip);
      throw ApiError.unauthorized(LOGIN_FAILED[door]);
    }
    await this.loginThrottle.recordSuccess(email, client.ip);
    return user;
  }

  private async adminSession(user: UserEntity, client: ClientInfo, secondFactor = false): Promise<AdminSessionDataDto> {
    const admin = toSessionUser(user);
    return { token: await this.startSession(user, client, secondFactor), admin: { ...admin, first_name: admin.first_name || 'Admin' } };
  }

  private async startSession(user: UserEntity, client: ClientInfo, secondFactor = false): Promise<string> {
    await this.users.recordLogin(user.id);
    return this.sessions.start(user, client, secondFactor);
  }

  private async sendResetMail(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || !user.is_active) return;
    const ttl = this.config.passwordResetTtlSeconds;
    const token = await this.users.issuePasswordResetToken(user.id, ttl);
    await this.mail.send(
      letter(user.email, 'Reset your password', user.first_name || user.email, [
        'Someone, hopefully you, asked to reset the password of your StreamHub account. Choose a new password here:\n' +
          `${this.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
        `The link works once and expires in ${forHowLong(ttl)}. If you did not ask for it, ignore this message: your password stays as it is.`,
      ]),
    );
  }

  private async sendVerificationMail(user: UserEntity): Promise<boolean> {
    const token = await this.users.issueVerificationToken(user, this.config.verificationTokenTtlSeconds);
    const link = `${this.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    const hours = Math.round(this.config.verificationTokenTtlSeconds / 3600);
    try {
      await this.mail.send(
        letter(user.email, 'Verify your e-mail address', user.first_name || user.email, [
          `Please confirm your e-mail address to activate your StreamHub account:\n${link}`,
          `The link works once and expires in ${hours} hours. If you did not register, ignore this message.`,
        ]),
      );
      return true;
    } catch (error) {
      this.logger.error(`Verification mail to ${user.email} failed: ${(error as Error).message}`);
      return false;
    }
  }
}
