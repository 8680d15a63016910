import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import type { AuthUser } from '../../common/current-user.decorator';
import { OnNotification, USER_CHANGED } from '../../common/events';
import { ListTotals } from '../../common/list-totals';
import { UserType, userTypeOf } from './dto/admin-user.dto';
import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { CreateUserDto, UpdateUserDto } from './dto/user-form.dto';
import { PasswordHasher } from './password-hasher';
import { UserTrigramsRepository } from './user-trigrams.repository';
import { UserEntity, UserRole } from './user.entity';
import { NO_OUTSTANDING_LINKS, UserCounts, UserPage, UsersRepository } from './users.repository';
import { duplicateEmail, markVerified, UsersService } from './users.service';

/** How long a search term's choice of trigram is cached, and for how many terms at most. */
const TRIGRAM_CHOICE_TTL_MS = 60_000;
const TRIGRAM_CHOICES = 256;

/** The admin's user management: the list, creating, editing, (de)activating, verifying and deleting accounts. */
@Injectable()
export class AdminUsersService {
  /**
   * The list's totals; cleared when an account is added, removed or changes in a way the filters see (here, and
   * through USER_CHANGED from registration, mailed links and the profile page), so an exact total is also cached
   * for a few seconds (a search paged through, or asked again, counts its matches once).
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);
  /**
   * Recent search terms' rarest trigram (MySQL/MariaDB; see UserTrigramsRepository.rarest). Any of the term's
   * trigrams (or none) finds the same users, so an old choice can only cost speed, never a match: never cleared.
   */
  private readonly trigramChoices = new Cache<{ trigram: string | null }>({ max: TRIGRAM_CHOICES, ttlMs: TRIGRAM_CHOICE_TTL_MS });

  constructor(
    private readonly accounts: UsersService,
    private readonly users: UsersRepository,
    private readonly trigrams: UserTrigramsRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Another service changed a user: delivered as it is emitted, so the next list counts anew. */
  @OnNotification(USER_CHANGED)
  userChanged(): void {
    this.totals.clear();
  }

  /** The admin list; every sort and filter has an index, totals are exact up to EXACT_TOTAL_CAP (ListTotals). */
  async list(query: ListUsersQueryDto): Promise<UserPage> {
    const term = query.search?.trim();
    const rarest =
      term && this.trigrams.used
        ? (await this.trigramChoices.get(term, async () => ({ trigram: await this.trigrams.rarest(term) }))).trigram
        : null;
    return this.users.page(query, rarest, this.totals);
  }

  get(id: number): Promise<UserEntity> {
    return this.accounts.get(id);
  }

  create(dto: CreateUserDto): Promise<UserEntity> {
    return this.accounts.createAccount({ ...dto, role: dto.role ?? dto.user_type ?? 'client' });
  }

  async update(id: number, dto: UpdateUserDto, actor: AuthUser): Promise<UserEntity> {
    const user = await this.accounts.get(id);
    const role = dto.role ?? roleForType(user.role, dto.user_type);
    if (user.id === actor.id) {
      if (dto.is_active === false) throw ApiError.forbidden('You cannot deactivate your own account.');
      if (role !== 'admin') throw ApiError.forbidden('You cannot remove your own admin role.');
    }
    if (dto.email && dto.email !== user.email && (await this.users.emailTaken(dto.email))) throw duplicateEmail();

    // A new password or role, or a deactivation, ends every session: a session carries the rights of the role it
    // began under (and, for an admin, the second factor it passed), never those of a role given later.
    let revokeSessions = role !== user.role;
    if (dto.password) {
      user.password_hash = await this.hasher.hash(dto.password);
      revokeSessions = true;
    }
    // Links mailed before a new password or address were sent for the old ones.
    if (dto.password || (dto.email && dto.email !== user.email)) Object.assign(user, NO_OUTSTANDING_LINKS);
    if (dto.is_active === false && user.is_active) revokeSessions = true;
    if (dto.is_verified === true && !user.is_verified) markVerified(user);
    if (dto.is_verified === false) {
      user.is_verified = false;
      user.email_verified_at = null;
    }
    Object.assign(user, {
      email: dto.email ?? user.email,
      first_name: dto.first_name ?? user.first_name,
      last_name: dto.last_name ?? user.last_name,
      company: dto.company === undefined ? user.company : dto.company || null,
      phone: dto.phone === undefined ? user.phone : dto.phone || null,
      country: dto.country === undefined ? user.country : dto.country || null,
      role,
      channel: dto.channel ?? user.channel,
      is_active: dto.is_active ?? user.is_active,
    });
    if (revokeSessions) user.token_version += 1;
    const stored = await this.users.saveUnlessEmailTaken(user);
    if (!stored) throw duplicateEmail();
    await this.accounts.announceChange(stored.id, true);
    return stored;
  }

  async remove(id: number, actor: AuthUser): Promise<void> {
    if (id === actor.id) throw ApiError.forbidden('You cannot delete your own account.');
    const found = await this.users.delete(id);
    this.totals.clear();
    if (!found) throw ApiError.notFound(`User ${id} not found`);
  }

  async toggleStatus(id: number, actor: AuthUser): Promise<UserEntity> {
    const user = await this.accounts.get(id);
    if (user.id === actor.id && user.is_active) throw ApiError.forbidden('You cannot deactivate your own account.');
    user.is_active = !user.is_active;
    // Deactivation ends every session at once; reactivation must not revive them.
    user.token_version += 1;
    return this.saved(user);
  }

  async verifyEmail(id: number): Promise<UserEntity> {
    const user = await this.accounts.get(id);
    if (!user.is_verified) markVerified(user);
    return this.saved(user);
  }

  /** Accounts in all, active, verified, and how many existed at `before` (for the dashboard's previous period). */
  counts(before: Date): Promise<UserCounts> {
    return this.users.counts(before);
  }

  /** Saves a change the list's filters see (not its search): the totals count anew. */
  private async saved(user: UserEntity): Promise<UserEntity> {
    const stored = await this.users.save(user);
    this.totals.clear();
    return stored;
  }
}

// The form only knows client and admin: keeping the same type keeps a finer role such as moderator.
function roleForType(current: UserRole, type?: UserType): UserRole {
  if (!type || type === userTypeOf(current)) return current;
  return type;
}
