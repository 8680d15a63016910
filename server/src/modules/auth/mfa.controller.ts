import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Audit } from '../../common/audit.decorator';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { ApiEnvelopeResponse, ApiGetResponse } from '../../common/response';
import { MfaCodeDto, SecondFactorDto } from './dto/auth.dto';
import {
  DisableMfaDto,
  MfaSetupDto,
  MfaSetupResponseDto,
  MfaStatusDto,
  MfaStatusResponseDto,
  RecoveryCodesDto,
  RecoveryCodesResponseDto,
  StartMfaSetupDto,
} from './dto/mfa.dto';
import { MfaService } from './mfa.service';

const ipOf = (request: Request) => request.ip ?? 'unknown';

/** The signed-in admin's own two-factor sign-in (TOTP): status, set-up, recovery codes, turning it off. */
@ApiTags('mfa')
@AdminOnly()
@Controller('admin/mfa')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @ApiGetResponse(MfaStatusResponseDto)
  async getMfaStatus(@CurrentUser() user: AuthUser): Promise<MfaStatusDto> {
    return { ...(await this.mfa.status(user.id)), required: this.mfa.required };
  }

  /**
   * Starts setting up an authenticator, with the account's password: a new secret (shown this once) and its QR code;
   * it counts once confirmed with a code.
   */
  @Post('setup')
  @Audit('auth.mfa_setup', 'Two-factor set-up started')
  @ApiEnvelopeResponse(MfaSetupResponseDto)
  startMfaSetup(@Body() dto: StartMfaSetupDto, @CurrentUser() user: AuthUser, @Req() request: Request): Promise<MfaSetupDto> {
    return this.mfa.beginEnrolmentWithPassword(user, dto.password, ipOf(request));
  }

  /**
   * Confirms the authenticator with its first code: two-factor sign-in is on, ten recovery codes are shown once, and
   * every other session of the account ends.
   */
  @Post('enable')
  @Audit('auth.mfa_enable', 'Two-factor sign-in turned on')
  @ApiEnvelopeResponse(RecoveryCodesResponseDto, { message: 'Two-factor sign-in is on.' })
  async enableMfa(@Body() dto: MfaCodeDto, @CurrentUser() user: AuthUser, @Req() request: Request): Promise<RecoveryCodesDto> {
    return { recovery_codes: await this.mfa.completeEnrolment(user, dto.code, ipOf(request), user.sessionId) };
  }

  /** Ten new recovery codes replace the old ones; takes a code (or a recovery code). */
  @Post('recovery-codes')
  @Audit('auth.mfa_recovery_codes', 'Two-factor recovery codes renewed')
  @ApiEnvelopeResponse(RecoveryCodesResponseDto, { message: 'New recovery codes are ready; the old ones no longer work.' })
  async regenerateRecoveryCodes(
    @Body() dto: SecondFactorDto,
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
  ): Promise<RecoveryCodesDto> {
    return { recovery_codes: await this.mfa.regenerateRecoveryCodes(user, dto, ipOf(request)) };
  }

  /** Turns two-factor sign-in off; takes the password and a code (or a recovery code). */
  @Post('disable')
  @Audit('auth.mfa_disable', 'Two-factor sign-in turned off')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'Two-factor sign-in is off.' })
  async disableMfa(@Body() dto: DisableMfaDto, @CurrentUser() user: AuthUser, @Req() request: Request): Promise<void> {
    await this.mfa.disable(user, dto.password, dto, ipOf(request));
  }
}
