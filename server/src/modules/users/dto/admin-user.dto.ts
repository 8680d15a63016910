import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../../../common/list-query.dto';
import { USER_ROLES, UserEntity, UserRole } from '../user.entity';
import { Envelope, PageOf } from '../../../common/envelope';
import { CHANNELS, type Channel } from '../../../common/channels';

export const USER_TYPES = ['client', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** A user as the Users Management screen sees it. Password hashes and raw tokens never leave the server. */
export class AdminUserDto {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  full_name: string;
  company: string | null;
  phone: string | null;
  country: string | null;
  @ApiProperty({ enum: USER_TYPES, enumName: 'UserType' })
  user_type: UserType;
  @ApiProperty({ enum: USER_ROLES, enumName: 'UserRole' })
  role: UserRole;
  /** The release channel granted to every license of the customer. */
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  is_active: boolean;
  is_verified: boolean;
  @ApiProperty({ enum: ['active', 'inactive'], enumName: 'UserStatus' })
  status: 'active' | 'inactive';
  email_verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_login: Date | null;
  /** Fingerprint of the pending verification token (the token itself is only in the mail). */
  verification_token: string | null;
  verification_token_expires: Date | null;
  /** When the pending password-reset link expires (null: none pending). The token itself is only in the mail. */
  password_reset_expires: Date | null;
}

export class AdminUserResponseDto extends Envelope(AdminUserDto, { message: 'optional' }) {}

export class UserListMetaDto extends PageMetaDto {
  /** All users, whatever the search and filters. */
  overall_total: number;
}

export class AdminUserListResponseDto extends PageOf(AdminUserDto, UserListMetaDto) {}

export function userTypeOf(role: UserRole): UserType {
  return role === 'admin' ? 'admin' : 'client';
}

const fingerprint = (hash: string | null) => (hash ? hash.slice(0, 12) : null);

export function toAdminUserDto(user: UserEntity): AdminUserDto {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: `${user.first_name} ${user.last_name}`.trim(),
    company: user.company,
    phone: user.phone,
    country: user.country,
    user_type: userTypeOf(user.role),
    role: user.role,
    channel: user.channel,
    is_active: user.is_active,
    is_verified: user.is_verified,
    status: user.is_active ? 'active' : 'inactive',
    email_verified_at: user.email_verified_at,
    created_at: user.created_at,
    updated_at: user.updated_at,
    last_login: user.last_login,
    verification_token: fingerprint(user.verification_token_hash),
    verification_token_expires: user.verification_token_expires,
    password_reset_expires: user.password_reset_token_hash ? user.password_reset_expires : null,
  };
}
