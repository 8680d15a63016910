import { userTypeOf } from '../users/dto/admin-user.dto';
import type { UserEntity } from '../users/users.service';
import { SessionUserDto } from './dto/auth.dto';

export function toSessionUser(user: UserEntity): SessionUserDto {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    user_type: userTypeOf(user.role),
    role: user.role,
    is_verified: user.is_verified,
    company: user.company,
    phone: user.phone,
    country: user.country,
  };
}
