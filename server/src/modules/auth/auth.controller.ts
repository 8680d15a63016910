import { Audit, setAuditActor } from '../../common/audit.decorator';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse, ApiGetResponse, Reply, withMessage } from '../../common/response';
import { userTypeOf } from '../users/dto/admin-user.dto';
import { UsersService } from '../users/users.service';
import { AuthService, ClientInfo, FORGOT_RESPONSE, RESEND_RESPONSE, RESET_DONE, VERIFICATION_SENT } from './auth.service';
import {
  AdminEnrolledSessionDto,
  AdminEnrolledSessionResponseDto,
  AdminLoginMfaDto,
  AdminLoginMfaEnableDto,
  AdminLoginResponseDto,
  AdminSessionDataDto,
  AdminSessionResponseDto,
  CurrentUserResponseDto,
  ForgotPasswordDto,
  LoginDto,
  LoginResponseDto,
  MfaChallengeDto,
  MfaTokenDto,
  PasswordResetDto,
  RegisterDto,
  RegisterResponseDto,
  RegisterResultDto,
  ResendVerificationDto,
  ResetPasswordDto,
  ResetPasswordResponseDto,
  SessionUserDto,
  VerifiedEmailDto,
  VerifyEmailDto,
  VerifyEmailResponseDto,
} from './dto/auth.dto';
import { MfaSetupDto, MfaSetupResponseDto } from './dto/mfa.dto';
import { MfaService } from './mfa.service';
import { toSessionUser } from './session-user';

const clientOf = (request: Request): ClientInfo => ({ ip: request.ip ?? 'unknown', userAgent: request.get('user-agent') });

@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly mfa: MfaService,
  ) {}

  /** Creates a client account and mails a one-time verification link. A taken e-mail is 409 with `errors.email`. */
  @Public()
  @Post('register')
  @Audit('auth.register', 'Register')
  @ApiEnvelopeResponse(RegisterResponseDto, { status: 201 })
  async register(@Body() dto: RegisterDto, @Req() request: Request): Promise<Reply<RegisterResultDto>> {
    const { user, mailSent } = await this.auth.register(dto, clientOf(request));
    const message = mailSent
      ? VERIFICATION_SENT
      : 'Registration successful, but the verification e-mail could not be sent. Please request a new verification e-mail.';
    return withMessage(message, { id: user.id, email: user.email });
  }

  /** Confirms an e-mail address with the token from the verification mail. */
  @Public()
  @Post('verify-email')
  @Audit('auth.verify_email', 'Verify e-mail address')
  @ApiEnvelopeResponse(VerifyEmailResponseDto, { message: 'Your email address has been verified. You can now log in.' })
  async verifyEmail(@Body() dto: VerifyEmailDto): Promise<VerifiedEmailDto> {
    const user = await this.auth.verifyEmail(dto.token);
    return { email: user.email };
  }

  /** Sends a new verification mail; answers the same whether or not the account exists. */
  @Public()
  @Post('verify-email/resend')
  @Audit('auth.resend_verification', 'Resend verification e-mail')
  @ApiEnvelopeResponse(MessageResponseDto, { message: RESEND_RESPONSE })
  async resendVerification(@Body() dto: ResendVerificationDto, @Req() request: Request): Promise<void> {
    await this.auth.resendVerification(dto.email, clientOf(request));
  }

  /**
   * Mails a single-use link to reset the password, when an account has this address. The response, and its timing,
   * are the same whether or not one has; requests are limited per address and per client address.
   */
  @Public()
  @Post('password/forgot')
  @Audit('auth.password_forgot', 'Request password reset')
  @ApiEnvelopeResponse(MessageResponseDto, { message: FORGOT_RESPONSE })
  async forgotPassword(@Body() dto: ForgotPasswordDto, @Req() request: Request): Promise<void> {
    await this.auth.forgotPassword(dto.email, clientOf(request));
  }

  /** Sets a new password with the token from the reset link (once); every session of the account ends. */
  @Public()
  @Post('password/reset')
  @Audit('auth.password_reset', 'Reset password')
  @ApiEnvelopeResponse(ResetPasswordResponseDto, { message: RESET_DONE })
  async resetPassword(@Body() dto: ResetPasswordDto): Promise<PasswordResetDto> {
    const user = await this.auth.resetPassword(dto.token, dto.password);
    return { email: user.email, user_type: userTypeOf(user.role) };
  }

  /** Client login: `{token, user}`. */
  @Public()
  @Post('login')
  @Audit('auth.login', 'Sign in')
  @HttpCode(200)
  login(@Body() dto: LoginDto, @Req() request: Request): Promise<LoginResponseDto> {
    return this.auth.login(dto, clientOf(request));
  }

  /**
   * Admin login: `{success, data: {token, admin}}`, only for accounts with role admin. With two-factor sign-in on
   * (or required by ADMIN_REQUIRE_MFA and not yet set up), `{success, data: {mfa, mfa_token}}` instead: the
   * session comes from the second step.
   */
  @Public()
  @Post('admin/login')
  @Audit('auth.admin_login', 'Admin sign-in')
  @ApiEnvelopeResponse(AdminLoginResponseDto)
  adminLogin(@Body() dto: LoginDto, @Req() request: Request): Promise<AdminSessionDataDto | MfaChallengeDto> {
    return this.auth.adminLogin(dto, clientOf(request));
  }

  /**
   * The second step of an admin sign-in with two-factor sign-in: the mfa_token of the password step and a code from
   * the authenticator app (each code is taken once) or a recovery code (each works once). The mfa_token gives one
   * session. Wrong codes are limited per account and per client address.
   */
  @Public()
  @Post('admin/login/mfa')
  @Audit('auth.admin_login_mfa', 'Admin sign-in, second step')
  @ApiEnvelopeResponse(AdminSessionResponseDto)
  async adminLoginMfa(@Body() dto: AdminLoginMfaDto, @Req() request: Request): Promise<AdminSessionDataDto> {
    const challenge = await this.auth.mfaChallenge(dto.mfa_token, 'verify');
    setAuditActor(request, challenge.user);
    return this.auth.completeAdminLogin(challenge, dto, clientOf(request));
  }

  /** ADMIN_REQUIRE_MFA: an admin without two-factor sign-in sets up an authenticator during the sign-in (the secret is shown once). */
  @Public()
  @Post('admin/login/mfa/setup')
  @Audit('auth.mfa_setup', 'Two-factor set-up started at sign-in')
  @ApiEnvelopeResponse(MfaSetupResponseDto)
  async adminLoginMfaSetup(@Body() dto: MfaTokenDto, @Req() request: Request): Promise<MfaSetupDto> {
    const { user } = await this.auth.mfaChallenge(dto.mfa_token, 'enroll');
    setAuditActor(request, user);
    return this.mfa.beginEnrolment(user);
  }

  /** Confirms that authenticator with its first code: two-factor sign-in is on, the session begins, and the ten recovery codes are shown once. */
  @Public()
  @Post('admin/login/mfa/enable')
  @Audit('auth.mfa_enable', 'Two-factor sign-in turned on at sign-in')
  @ApiEnvelopeResponse(AdminEnrolledSessionResponseDto)
  async adminLoginMfaEnable(@Body() dto: AdminLoginMfaEnableDto, @Req() request: Request): Promise<AdminEnrolledSessionDto> {
    const challenge = await this.auth.mfaChallenge(dto.mfa_token, 'enroll');
    setAuditActor(request, challenge.user);
    return this.auth.completeAdminEnrolment(challenge, dto.code, clientOf(request));
  }

  /** Ends this session: the token stops working at once. */
  @Post('logout')
  @Audit('auth.logout', 'Sign out')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'Logged out' })
  async logout(@CurrentUser() user: AuthUser): Promise<void> {
    await this.auth.logout(user.sessionId);
  }

  /** The signed-in user, for restoring a session. */
  @ApiGetResponse(CurrentUserResponseDto, 'me')
  async getCurrentUser(@CurrentUser() user: AuthUser): Promise<SessionUserDto> {
    return toSessionUser(await this.users.get(user.id));
  }
}
