import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength, ValidateBy, ValidationArguments } from 'class-validator';
import { IsNotCommonPassword } from '../../../common/password-policy';
import { NormalizeEmail, Trim } from '../../../common/transforms';
import { USER_ROLES, UserRole } from '../../../common/roles';
import { USER_TYPES, UserType } from '../../users/dto/admin-user.dto';
import { Envelope } from '../../../common/envelope';
import { MAX_LENGTH } from '../../../database/column-lengths';

export const REGISTRATION_PASSWORD_MIN = 8;
const REQUIRED = 'This field is required';

/** Passes when the value equals the named sibling property. */
function MatchesProperty(property: string, message: string) {
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

  @NormalizeEmail()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  @IsNotEmpty({ message: REQUIRED })
  email: string;

  @NewPassword()
  password: string;

  @MatchesProperty('password', 'Passwords do not match')
  password_confirmation: string;
}

export class ForgotPasswordDto {
  @NormalizeEmail()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  @IsNotEmpty({ message: REQUIRED })
  email: string;
}

export class ResetPasswordDto {
  /** The token from the reset link. */
  @IsString()
  @MaxLength(200)
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
  @IsString()
  @MaxLength(200)
  @IsNotEmpty({ message: 'Verification token is required' })
  token: string;
}

export class ResendVerificationDto {
  @NormalizeEmail()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  @IsNotEmpty({ message: REQUIRED })
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

export class AdminLoginResponseDto extends Envelope(AdminSessionDataDto) {}

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
