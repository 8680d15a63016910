import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '../../common/api-error';
import { Audit } from '../../common/audit.decorator';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { Public } from '../../common/public.decorator';
import { AccountService } from './account.service';
import {
  ChangeEmailDto,
  ChangePasswordDto,
  ConfirmEmailChangeDto,
  ConfirmEmailChangeResponseDto,
  EndedSessionsResponseDto,
  ProfileResponseDto,
  SessionListResponseDto,
  UpdateProfileDto,
} from './dto/account.dto';

const sessionId = new ParseUUIDPipe({ exceptionFactory: () => ApiError.badRequest('Invalid session id') });

/** The signed-in user's own account (customers and admins alike): profile, password, e-mail address, sessions. */
@ApiTags('account')
@Controller()
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @Get('profile')
  async getProfile(@CurrentUser() user: AuthUser): Promise<ProfileResponseDto> {
    return { success: true, data: await this.account.profile(user.id) };
  }

  /** First and last name, company, phone and country. */
  @Put('profile')
  @Audit('account.update_profile', 'Update own profile')
  async updateProfile(@CurrentUser() user: AuthUser, @Body() dto: UpdateProfileDto): Promise<ProfileResponseDto> {
    return { success: true, message: 'Profile updated.', data: await this.account.updateProfile(user.id, dto) };
  }

  /** A new password, given the current one: every other session of the account is signed out, this one stays. */
  @Post('profile/password')
  @Audit('account.change_password', 'Change own password')
  @HttpCode(200)
  async changePassword(@CurrentUser() user: AuthUser, @Body() dto: ChangePasswordDto): Promise<EndedSessionsResponseDto> {
    const ended = await this.account.changePassword(user, dto);
    return { success: true, message: 'Password changed. Every other session has been signed out.', data: { ended } };
  }

  /** Asks for a new e-mail address, given the current password: it takes effect once the link mailed to it is opened. */
  @Post('profile/email')
  @Audit('account.request_email_change', 'Request own e-mail change')
  @HttpCode(200)
  async requestEmailChange(@CurrentUser() user: AuthUser, @Body() dto: ChangeEmailDto): Promise<ProfileResponseDto> {
    const profile = await this.account.requestEmailChange(user.id, dto);
    return { success: true, message: 'We have sent a confirmation link to the new address.', data: profile };
  }

  /** Confirms a new e-mail address with the token from the link mailed to it (once); no session needed. */
  @Public()
  @Post('profile/email/confirm')
  @Audit('account.confirm_email_change', 'Confirm e-mail change')
  @HttpCode(200)
  async confirmEmailChange(@Body() dto: ConfirmEmailChangeDto): Promise<ConfirmEmailChangeResponseDto> {
    const user = await this.account.confirmEmailChange(dto.token);
    return { success: true, message: 'Your new e-mail address is confirmed.', data: { email: user.email } };
  }

  /** Where the caller is signed in: their live sessions, the most recently used first, this one marked. */
  @Get('sessions')
  async listSessions(@CurrentUser() user: AuthUser): Promise<SessionListResponseDto> {
    return { success: true, data: await this.account.listSessions(user) };
  }

  /** Signs out one of the caller's own sessions. */
  @Delete('sessions/:id')
  @Audit('session.end', 'Sign out a session', 'session')
  async endSession(@CurrentUser() user: AuthUser, @Param('id', sessionId) id: string): Promise<MessageResponseDto> {
    await this.account.endSession(user, id);
    return { success: true, message: 'Signed out.' };
  }

  /** Signs out every session of the caller but this one. */
  @Post('sessions/end-others')
  @Audit('session.end_others', 'Sign out everywhere else')
  @HttpCode(200)
  async endOtherSessions(@CurrentUser() user: AuthUser): Promise<EndedSessionsResponseDto> {
    const ended = await this.account.endOtherSessions(user);
    return { success: true, message: 'Signed out everywhere else.', data: { ended } };
  }
}
