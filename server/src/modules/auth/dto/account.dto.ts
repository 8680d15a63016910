import { EmailAddress, OptionalTrimmedText, Text } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Envelope } from '../../../common/envelope';
import { Trim } from '../../../common/transforms';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { USER_TYPES, UserType } from '../../users/dto/admin-user.dto';
import { MatchesProperty, NewPassword } from './auth.dto';

const REQUIRED = 'This field is required';
const CURRENT_REQUIRED = 'Current password is required';

/** The signed-in user's own account, as the profile page shows it. */
export class ProfileDto {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company: string | null;
  phone: string | null;
  country: string | null;
  @ApiProperty({ enum: USER_TYPES, enumName: 'UserType' })
  user_type: UserType;
  /** A new address waiting for its confirmation link (null: none). */
  pending_email: string | null;
  pending_email_expires: Date | null;
}

export class ProfileResponseDto extends Envelope(ProfileDto, { message: 'optional' }) {}

export class UpdateProfileDto {
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

  @OptionalTrimmedText(MAX_LENGTH.company)
  company?: string | null;

  @OptionalTrimmedText(MAX_LENGTH.phone)
  phone?: string | null;

  @OptionalTrimmedText(MAX_LENGTH.country)
  country?: string | null;
}

export class ChangePasswordDto {
  @IsString({ message: CURRENT_REQUIRED })
  @MaxLength(200)
  @IsNotEmpty({ message: CURRENT_REQUIRED })
  current_password: string;

  @NewPassword()
  password: string;

  @MatchesProperty('password', 'Passwords do not match')
  password_confirmation: string;
}

export class ChangeEmailDto {
  /** The new address; it takes effect once the link mailed to it is opened. */
  @EmailAddress()
  email: string;

  @IsString({ message: CURRENT_REQUIRED })
  @MaxLength(200)
  @IsNotEmpty({ message: CURRENT_REQUIRED })
  current_password: string;
}

export class ConfirmEmailChangeDto {
  /** The token from the link mailed to the new address. */
  @Text(200)
  @IsNotEmpty({ message: 'Confirmation token is required' })
  token: string;
}

export class ConfirmedEmailDto {
  /** The account's address from now on. */
  email: string;
}

export class ConfirmEmailChangeResponseDto extends Envelope(ConfirmedEmailDto, { message: 'required' }) {}

/** One place the user is signed in. */
export class SessionDto {
  id: string;
  created_at: Date;
  /** The last request with this session (to the minute). */
  last_used_at: Date | null;
  ip: string | null;
  user_agent: string | null;
  expires_at: Date;
  /** The session this request came with. */
  current: boolean;
}

export class SessionListResponseDto extends Envelope([SessionDto]) {}

export class EndedSessionsDto {
  /** How many sessions were signed out. */
  ended: number;
}

export class EndedSessionsResponseDto extends Envelope(EndedSessionsDto, { message: 'required' }) {}
