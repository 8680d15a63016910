import { OptionalOneOf, OptionalTrimmedText } from '../../../common/fields';
import { PartialType } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsNotCommonPassword } from '../../../common/password-policy';
import { NormalizeEmail } from '../../../common/transforms';
import { USER_ROLES, UserRole } from '../user.entity';
import { USER_TYPES, UserType } from './admin-user.dto';
import { MAX_LENGTH } from '../../../database/column-lengths';
import { CHANNELS, type Channel } from '../../../common/channels';

export const ADMIN_PASSWORD_MIN = 6;

class UserProfileFields {
  @OptionalTrimmedText(MAX_LENGTH.firstName)
  first_name?: string;

  @OptionalTrimmedText(MAX_LENGTH.lastName)
  last_name?: string;

  @OptionalTrimmedText(MAX_LENGTH.phone)
  phone?: string;

  @OptionalTrimmedText(MAX_LENGTH.country)
  country?: string;

  @OptionalTrimmedText(MAX_LENGTH.company)
  company?: string;

  @OptionalOneOf(USER_TYPES, { enumName: 'UserType' })
  user_type?: UserType;

  /** Finer role; when absent it follows user_type. */
  @OptionalOneOf(USER_ROLES, { enumName: 'UserRole' })
  role?: UserRole;

  /** The release channel granted to every license of the customer (stable < rc < beta < alpha); default stable. */
  @OptionalOneOf(CHANNELS, { enumName: 'VersionChannel', default: 'stable' })
  channel?: Channel;

  /** Active Account (default on). */
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;

  /** Email Verified (default off). */
  @IsOptional()
  @IsBoolean()
  is_verified?: boolean;
}

export class CreateUserDto extends UserProfileFields {
  @NormalizeEmail()
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  email: string;

  @IsString({ message: 'Password is required' })
  @IsNotCommonPassword()
  @MinLength(ADMIN_PASSWORD_MIN, { message: `Password must be at least ${ADMIN_PASSWORD_MIN} characters` })
  @MaxLength(200)
  password: string;
}

export class UpdateUserDto extends PartialType(UserProfileFields) {
  @IsOptional()
  @NormalizeEmail()
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(MAX_LENGTH.email)
  email?: string;

  /** Leave blank to keep the current password. */
  @ValidateIf((dto: UpdateUserDto) => dto.password !== undefined && dto.password !== null && dto.password !== '')
  @IsString()
  @IsNotCommonPassword()
  @MinLength(ADMIN_PASSWORD_MIN, { message: `Password must be at least ${ADMIN_PASSWORD_MIN} characters` })
  @MaxLength(200)
  password?: string;
}
