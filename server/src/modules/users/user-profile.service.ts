import { Injectable } from '@nestjs/common';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** What a user may change of their own account on the profile page. */
export interface ProfileFields {
  first_name: string;
  last_name: string;
  company?: string | null;
  phone?: string | null;
  country?: string | null;
}

/** The signed-in user's own profile: names and contact details. */
@Injectable()
export class UserProfileService {
  constructor(
    private readonly accounts: UsersService,
    private readonly users: UsersRepository,
  ) {}

  /** The user's own names and contact details; an empty optional field is stored as none. */
  async updateProfile(id: number, profile: ProfileFields): Promise<UserEntity> {
    const user = await this.accounts.get(id);
    Object.assign(user, {
      first_name: profile.first_name,
      last_name: profile.last_name,
      company: profile.company || null,
      phone: profile.phone || null,
      country: profile.country || null,
    });
    const stored = await this.users.save(user);
    // The admin list searches by name.
    await this.accounts.announceChange(id, true);
    return stored;
  }
}
