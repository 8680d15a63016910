import { EmailAddress, Text } from '../../../common/fields';
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf, ValidationArguments } from 'class-validator';
import { IsNotCommonPassword } from '../../../common/password-policy';
import { Trim } from '../../../common/transforms';
import { USER_ROLES, UserRole } from '../../../common/roles';
import { USER_TYPES, UserType } from '../../users/dto/admin-user.dto';
import { MFA_STAGES, type MfaStage } from '../mfa-challenges';
import { Envelope } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';

export const REGISTRATION_PASSWORD_MIN = 8;
const REQUIRED = 'This field is required';

/** Passes when the value equals the named sibling property. */
export function MatchesProperty(property: string, message: string) {
  return ValidateBy({
    name: 'matchesProperty',
    constraints: [property],
    validator: {
      validate: (value: unknown, args: ValidationArguments) => value === (args.object as Record<string, unknown>)[property],
      defaultMessage: () => message,
    },
  });
}

/** A password someone chooses for their own account: the registration rules, in their order. */
export const NewPassword = () =>
  applyDecorators(
    // The plugin cannot see through applyDecorators: the schema's bounds are stated here.
    ApiProperty({ type: String, minLength: REGISTRATION_PASSWORD_MIN, maxLength: 200 }),
    IsNotEmpty({ message: REQUIRED }),
    MinLength(REGISTRATION_PASSWORD_MIN, { message: `Password must be at least ${REGISTRATION_PASSWORD_MIN} characters` }),
    MaxLength(200),
    IsNotCommonPassword(),
    IsString({ message: REQUIRED }),
  );

export class RegisterDto {
  @Trim()
  @IsString({ message: REQUIRED })
  @MaxLength(MAX_LENGTH.firstName)
  @IsNotEmpty({ message: REQUIRED })
  first_name: string;

  @Trim()
  @IsString({ message: REQUIRED })
  @MaxLength(MAX_LENGTH.lastName)
  @IsNotEmpty({ message: REQUIRED })
  last_name: string;

  @EmailAddress()
  email: string;

  @NewPassword()
  password: string;

  @MatchesProperty('password', 'Passwords do not match')
  password_confirmation: string;
}

export class ForgotPasswordDto {
  @EmailAddress()
  email: string;
}

export class ResetPasswordDto {
  /** The token from the reset link. */
  @Text(200)
  @IsNotEmpty({ message: 'Reset token is required' })
  token: string;

  @NewPassword()
  password: string;

  @MatchesProperty('password', 'Passwords do not match')
  password_confirmation: string;
}

export class LoginDto {
  @IsString({ message: 'Email and password are required' })
  @MaxLength(MAX_LENGTH.email)
  @IsNotEmpty({ message: 'Email and password are required' })
  email: string;

  @IsString({ message: 'Email and password are required' })
  @MaxLength(200)
  @IsNotEmpty({ message: 'Email and password are required' })
  password: string;
}

export class VerifyEmailDto {
  @Text(200)
  @IsNotEmpty({ message: 'Verification token is required' })
  token: string;
}

export class ResendVerificationDto {
  @EmailAddress()
  email: string;
}

/** The signed-in user as the portal keeps it (spec: User, session). */
export class SessionUserDto {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  @ApiProperty({ enum: USER_TYPES, enumName: 'UserType' })
  user_type: UserType;
  @ApiProperty({ enum: USER_ROLES, enumName: 'UserRole' })
  role: UserRole;
  is_verified: boolean;
  company: string | null;
  phone: string | null;
  country: string | null;
}

export class LoginResponseDto {
  /** Bearer token for the Authorization header. */
  token: string;
  user: SessionUserDto;
}

export class AdminSessionDataDto {
  token: string;
  admin: SessionUserDto;
}

/** The password was right; the session comes after the second step. */
export class MfaChallengeDto {
  /** What the second step is: a code from the authenticator app ('verify'), or setting one up first ('enroll'). */
  @ApiProperty({ enum: MFA_STAGES, enumName: 'MfaStage' })
  mfa: MfaStage;
  /** Carries the password step to the second step; good for 5 minutes, and no session. */
  mfa_token: string;
}

/** `{success, data: {token, admin}}`, or, for an admin with two-factor sign-in, `{success, data: {mfa, mfa_token}}`. */
@ApiExtraModels(AdminSessionDataDto, MfaChallengeDto)
export class AdminLoginResponseDto {
  success: boolean;
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(AdminSessionDataDto) }, { $ref: getSchemaPath(MfaChallengeDto) }] })
  data: AdminSessionDataDto | MfaChallengeDto;
}

export class AdminSessionResponseDto extends Envelope(AdminSessionDataDto) {}

export class AdminEnrolledSessionDto extends AdminSessionDataDto {
  /** Ten single-use recovery codes, shown this once. */
  recovery_codes: string[];
}

export class AdminEnrolledSessionResponseDto extends Envelope(AdminEnrolledSessionDto) {}

export class CurrentUserResponseDto extends Envelope(SessionUserDto) {}

export class RegisterResultDto {
  id: number;
  email: string;
}

export class VerifiedEmailDto {
  /** The address now verified. */
  email: string;
}

export class VerifyEmailResponseDto extends Envelope(VerifiedEmailDto, { message: 'required' }) {}

export class PasswordResetDto {
  /** The account's address, to sign in with. */
  email: string;
  /** Which door to sign in at: the admin sign-in or the client's. */
  @ApiProperty({ enum: USER_TYPES, enumName: 'UserType' })
  user_type: UserType;
}

export class ResetPasswordResponseDto extends Envelope(PasswordResetDto, { message: 'required' }) {}

export class RegisterResponseDto extends Envelope(RegisterResultDto, { message: 'required' }) {}

const CODE_FORMAT = 'Enter the 6-digit code from your authenticator app.';
const RECOVERY_FORMAT = 'Enter one of your recovery codes.';
/** Spaces people type into a code ('123 456') are not part of it. */
const WithoutSpaces = () => Transform(({ value }) => (typeof value === 'string' ? value.replace(/\s/g, '') : value));

/** A code from the authenticator app, or (when it is absent) one of the recovery codes. */
export class SecondFactorDto {
  @ValidateIf((dto: SecondFactorDto) => dto.recovery_code === undefined)
  @WithoutSpaces()
  @IsString({ message: CODE_FORMAT })
  @Matches(/^\d{6}$/, { message: CODE_FORMAT })
  @IsNotEmpty({ message: CODE_FORMAT })
  code?: string;

  @ValidateIf((dto: SecondFactorDto) => dto.code === undefined)
  @WithoutSpaces()
  @IsString({ message: RECOVERY_FORMAT })
  @Matches(/^[A-Za-z0-9-]{10,32}$/, { message: RECOVERY_FORMAT })
  @IsNotEmpty({ message: RECOVERY_FORMAT })
  recovery_code?: string;
}

export class MfaTokenDto {
  /** The mfa_token of the password step's answer. */
  @Text(2000)
  @IsNotEmpty({ message: 'mfa_token is required' })
  mfa_token: string;
}

/** The second step of an admin sign-in. */
export class AdminLoginMfaDto extends SecondFactorDto {
  /** The mfa_token of the password step's answer. */
  @Text(2000)
  @IsNotEmpty({ message: 'mfa_token is required' })
  mfa_token: string;
}

/** A code from the authenticator app. */
export class MfaCodeDto {
  @WithoutSpaces()
  @IsString({ message: CODE_FORMAT })
  @Matches(/^\d{6}$/, { message: CODE_FORMAT })
  @IsNotEmpty({ message: CODE_FORMAT })
  code: string;
}

/** Confirms the authenticator set up during a sign-in (ADMIN_REQUIRE_MFA) with its first code. */
export class AdminLoginMfaEnableDto extends MfaCodeDto {
  /** The mfa_token of the password step's answer. */
  @Text(2000)
  @IsNotEmpty({ message: 'mfa_token is required' })
  mfa_token: string;
}
