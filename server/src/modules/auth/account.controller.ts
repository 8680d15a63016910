import { Body, Controller, Delete, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiError } from '../../common/api-error';
import { Audit } from '../../common/audit.decorator';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse, ApiGetResponse } from '../../common/response';
import { AccountService } from './account.service';
import {
  ChangeEmailDto,
  ChangePasswordDto,
  ConfirmEmailChangeDto,
  ConfirmEmailChangeResponseDto,
  ConfirmedEmailDto,
  EndedSessionsDto,
  EndedSessionsResponseDto,
  ProfileDto,
  ProfileResponseDto,
  SessionDto,
  SessionListResponseDto,
  UpdateProfileDto,
} from './dto/account.dto';

const sessionId = new ParseUUIDPipe({ exceptionFactory: () => ApiError.badRequest('Invalid session id') });

/** The signed-in user's own account (customers and admins alike): profile, password, e-mail address, sessions. */
@ApiTags('account')
@Controller()
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @ApiGetResponse(ProfileResponseDto, 'profile')
  getProfile(@CurrentUser() user: AuthUser): Promise<ProfileDto> {
    return this.account.profile(user.id);
  }

  /** First and last name, company, phone and country. */
  @Put('profile')
  @Audit('account.update_profile', 'Update own profile')
  @ApiEnvelopeResponse(ProfileResponseDto, { message: 'Profile updated.' })
  updateProfile(@CurrentUser() user: AuthUser, @Body() dto: UpdateProfileDto): Promise<ProfileDto> {
    return this.account.updateProfile(user.id, dto);
  }

  /** A new password, given the current one: every other session of the account is signed out, this one stays. */
  @Post('profile/password')
  @Audit('account.change_password', 'Change own password')
  @ApiEnvelopeResponse(EndedSessionsResponseDto, { message: 'Password changed. Every other session has been signed out.' })
  async changePassword(@CurrentUser() user: AuthUser, @Body() dto: ChangePasswordDto): Promise<EndedSessionsDto> {
    return { ended: await this.account.changePassword(user, dto) };
  }

  /** Asks for a new e-mail address, given the current password: it takes effect once the link mailed to it is opened. */
  @Post('profile/email')
  @Audit('account.request_email_change', 'Request own e-mail change')
  @ApiEnvelopeResponse(ProfileResponseDto, { message: 'We have sent a confirmation link to the new address.' })
  requestEmailChange(@CurrentUser() user: AuthUser, @Body() dto: ChangeEmailDto): Promise<ProfileDto> {
    return this.account.requestEmailChange(user.id, dto);
  }

  /** Confirms a new e-mail address with the token from the link mailed to it (once); no session needed. */
  @Public()
  @Post('profile/email/confirm')
  @Audit('account.confirm_email_change', 'Confirm e-mail change')
  @ApiEnvelopeResponse(ConfirmEmailChangeResponseDto, { message: 'Your new e-mail address is confirmed.' })
  async confirmEmailChange(@Body() dto: ConfirmEmailChangeDto): Promise<ConfirmedEmailDto> {
    const user = await this.account.confirmEmailChange(dto.token);
    return { email: user.email };
  }

  /** Where the caller is signed in: their live sessions, the most recently used first, this one marked. */
  @ApiGetResponse(SessionListResponseDto, 'sessions')
  listSessions(@CurrentUser() user: AuthUser): Promise<SessionDto[]> {
    return this.account.listSessions(user);
  }

  /** Signs out one of the caller's own sessions. */
  @Delete('sessions/:id')
  @Audit('session.end', 'Sign out a session', 'session')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'Signed out.' })
  async endSession(@CurrentUser() user: AuthUser, @Param('id', sessionId) id: string): Promise<void> {
    await this.account.endSession(user, id);
  }

  /** Signs out every session of the caller but this one. */
  @Post('sessions/end-others')
  @Audit('session.end_others', 'Sign out everywhere else')
  @ApiEnvelopeResponse(EndedSessionsResponseDto, { message: 'Signed out everywhere else.' })
  async endOtherSessions(@CurrentUser() user: AuthUser): Promise<EndedSessionsDto> {
    return { ended: await this.account.endOtherSessions(user) };
  }
}
