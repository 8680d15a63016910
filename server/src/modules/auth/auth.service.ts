import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { MailService } from '../mail/mail.service';
import { PasswordHasher } from '../users/password-hasher';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AttemptLimiter } from './attempt-limiter';
import { AdminLoginResponseDto, LoginDto, LoginResponseDto, RegisterDto } from './dto/auth.dto';
import { toSessionUser } from './session-user';
import { SessionsService } from './sessions.service';

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

// The spec's message catalogue, per kind of login.
const MESSAGES = {
  client: {
    notFound: 'User not found or account is inactive.',
    badPassword: 'Invalid password. Please try again.',
    unverified: 'Account not verified. Please check your email.',
  },
  admin: {
    notFound: 'Admin not found or account is inactive.',
    badPassword: 'Invalid password. Please try again.',
    unverified: 'Admin account not verified. Please check your email.',
    notAdmin: 'Invalid admin credentials or insufficient permissions',
  },
};
const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again in {minutes} minutes.';
const TOO_MANY_REGISTRATIONS = 'Too many registration attempts. Please try again in {minutes} minutes.';
export const VERIFICATION_SENT = 'Registration successful! Please check your email to verify your account.';
export const RESEND_ANSWER = 'If an unverified account exists for this address, a new verification e-mail has been sent.';

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  private readonly loginFailures: AttemptLimiter;
  private readonly registrations: AttemptLimiter;

  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.loginFailures = new AttemptLimiter(config.throttle.windowSeconds);
    this.registrations = new AttemptLimiter(config.throttle.windowSeconds);
  }

  async register(dto: RegisterDto, client: ClientInfo): Promise<{ user: UserEntity; mailSent: boolean }> {
    this.registrations.assertAllowed([[`ip:${client.ip}`, this.config.throttle.registrationsPerIp]], TOO_MANY_REGISTRATIONS);
    this.registrations.record(`ip:${client.ip}`);
    const user = await this.users.createAccount({
      email: dto.email,
      password: dto.password,
      first_name: dto.first_name,
      last_name: dto.last_name,
    });
    return { user, mailSent: await this.sendVerificationMail(user) };
  }

  async resendVerification(email: string, client: ClientInfo): Promise<void> {
    this.registrations.assertAllowed([[`ip:${client.ip}`, this.config.throttle.registrationsPerIp]], TOO_MANY_REGISTRATIONS);
    this.registrations.record(`ip:${client.ip}`);
    const user = await this.users.findByEmail(email);
    if (user && user.is_active && !user.is_verified) await this.sendVerificationMail(user);
  }

  async verifyEmail(token: string): Promise<void> {
    const user = await this.users.consumeVerificationToken(token);
    if (!user) throw ApiError.badRequest('This verification link is invalid or has expired.');
  }

  async login(dto: LoginDto, client: ClientInfo): Promise<LoginResponseDto> {
    const user = await this.checkCredentials(dto, client, 'client');
    if (!user.is_verified) throw ApiError.forbidden(MESSAGES.client.unverified);
    return { token: await this.startSession(user, client), user: toSessionUser(user) };
  }

  async adminLogin(dto: LoginDto, client: ClientInfo): Promise<AdminLoginResponseDto> {
    const user = await this.checkCredentials(dto, client, 'admin');
    if (user.role !== 'admin') {
      this.loginFailures.record(`ip:${client.ip}`, `account:${user.email}`);
      throw ApiError.forbidden(MESSAGES.admin.notAdmin);
    }
    if (!user.is_verified) throw ApiError.forbidden(MESSAGES.admin.unverified);
    const admin = toSessionUser(user);
    return {
      success: true,
      data: { token: await this.startSession(user, client), admin: { ...admin, first_name: admin.first_name || 'Admin' } },
    };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId);
  }

  private async checkCredentials(dto: LoginDto, client: ClientInfo, kind: 'client' | 'admin'): Promise<UserEntity> {
    const email = dto.email.trim().toLowerCase();
    const ipKey = `ip:${client.ip}`;
    const accountKey = `account:${email}`;
    const { loginFailuresPerIp, loginFailuresPerAccount } = this.config.throttle;
    this.loginFailures.assertAllowed(
      [
        [ipKey, loginFailuresPerIp],
        [accountKey, loginFailuresPerAccount],
      ],
      TOO_MANY_LOGINS,
    );

    const user = await this.users.findByEmail(email);
    if (!user || !user.is_active) {
      this.loginFailures.record(ipKey, accountKey);
      throw ApiError.unauthorized(MESSAGES[kind].notFound);
    }
    if (!(await this.hasher.verify(user.password_hash, dto.password))) {
      this.loginFailures.record(ipKey, accountKey);
      throw ApiError.unauthorized(MESSAGES[kind].badPassword);
    }
    return user;
  }

  private async startSession(user: UserEntity, client: ClientInfo): Promise<string> {
    this.loginFailures.clear(`account:${user.email}`);
    await this.users.recordLogin(user.id);
    return this.sessions.start(user, client);
  }

  private async sendVerificationMail(user: UserEntity): Promise<boolean> {
    const token = await this.users.issueVerificationToken(user, this.config.verificationTokenTtlSeconds);
    const link = `${this.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
    const hours = Math.round(this.config.verificationTokenTtlSeconds / 3600);
    try {
      await this.mail.send({
        to: user.email,
        subject: 'Verify your e-mail address',
        text: [
          `Hello ${user.first_name || user.email},`,
          '',
          'Please confirm your e-mail address to activate your StreamHub account:',
          link,
          '',
          `The link works once and expires in ${hours} hours. If you did not register, ignore this message.`,
        ].join('\n'),
      });
      return true;
    } catch (error) {
      this.logger.error(`Verification mail to ${user.email} failed: ${(error as Error).message}`);
      return false;
    }
  }
}
