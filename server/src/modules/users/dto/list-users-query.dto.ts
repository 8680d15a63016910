import { OptionalOneOf } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { USER_ROLES, UserRole } from '../user.entity';

export const USER_PAGE_SIZES = [5, 10, 25, 50, 100];
export const USER_SORT_KEYS = ['name', 'email', 'role', 'status', 'is_verified', 'last_login', 'created_at'] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];

export class ListUsersQueryDto extends ListQueryDto {
  @ApiProperty({ enum: USER_PAGE_SIZES, required: false, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @IsIn(USER_PAGE_SIZES, { message: `limit must be one of ${USER_PAGE_SIZES.join(', ')}` })
  declare limit?: number;

  @ApiProperty({ enum: ['active', 'inactive'], required: false })
  @IsOptional()
  @IsIn(['active', 'inactive'])
  status?: 'active' | 'inactive';

  @OptionalOneOf(USER_ROLES, { enumName: 'UserRole' })
  role?: UserRole;

  @ApiProperty({ enum: ['verified', 'unverified'], required: false })
  @IsOptional()
  @IsIn(['verified', 'unverified'])
  email_status?: 'verified' | 'unverified';

  @OptionalOneOf(USER_SORT_KEYS, { default: 'created_at' })
  sort?: UserSortKey;
}
