import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Cron, CronExpression } from '@nestjs/schedule';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, LessThanOrEqual, MoreThan, Not, Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { emitAwaited, LICENSE_CHANGED, LICENSE_DELETED, LICENSE_REVOKED, notify } from '../../common/events';
import { whereSearch } from '../../common/pagination';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import {
  ADMIN_LICENSE_SORT_KEYS,
  CreateAdminLicenseDto,
  ExtendLicenseDto,
  ListAdminLicensesQueryDto,
  UpdateAdminLicenseDto,
} from './dto/admin-license.dto';
import { LicenseStatsDto, LicenseVerificationDto, toLicenseDto } from './dto/license.dto';
import { encodeLicenseFile } from './license-file';
import { generateLicenseKey, isValidTypedKey, normalizeLicenseKey, TYPED_KEY_RULE } from './license-key';
import { LicenseSigningService } from './license-signing.service';
import { LicenseEntity, LicenseStatus } from './license.entity';

/** A license as portals exchange it when syncing with a license server. */
export type SyncedLicense = Pick<
  LicenseEntity,
  'license_key' | 'product_name' | 'user_email' | 'status' | 'expires_at' | 'max_activations' | 'is_trial'
>;

/** A license as a license server holds it, seats included. */
export type SyncedLicenseState = SyncedLicense & Pick<LicenseEntity, 'id' | 'current_activations'>;

const SYNCED_FIELDS = ['product_name', 'user_email', 'status', 'max_activations', 'is_trial'] as const;

/** The latest expiry the databases store and every client can show. */
export const MAX_EXPIRY = new Date('9999-12-31T23:59:59.999Z');

export interface NewLicense {
  product_name: string;
  user_id: number | null;
  user_email: string;
  is_trial: boolean;
  expires_at: Date;
  max_activations: number;
  status?: LicenseStatus;
  order_id?: number | null;
  /** A key typed by an admin (already checked); otherwise one is generated. */
  license_key?: string;
}

export interface LicensePage {
  rows: LicenseEntity[];
  total: number;
  page: number;
  limit: number;
}

/** What an order needs from licenses: the fields of the license it pays for. */
export interface OrderedLicense {
  order_id: number;
  user_id: number | null;
  user_email: string;
  product_name: string;
  devices: number;
  months: number;
}

export const ADMIN_PRODUCT_TIERS = ['Pro', 'Enterprise', 'Basic'] as const;
const DAY_MS = 24 * 3600 * 1000;
const EXPIRES_SOON_DAYS = 30;
const KEY_ATTEMPTS = 5;

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

/** The status as of now: an active license past its expiry is expired, whether or not the job has run. */
export function effectiveStatus(license: Pick<LicenseEntity, 'status' | 'expires_at'>, now = Date.now()): LicenseStatus {
  return license.status === 'active' && license.expires_at.getTime() <= now ? 'expired' : license.status;
}

/** A date without a time means the end of that day (UTC): a license "until 2030-01-31" works all of that day. */
function parseExpiry(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}

@Injectable()
export class LicensesService {
  private readonly logger = new Logger('Licenses');

  constructor(
    @InjectRepository(LicenseEntity) private readonly licenses: Repository<LicenseEntity>,
    private readonly settings: SettingsService,
    private readonly users: UsersService,
    private readonly signing: LicenseSigningService,
    private readonly events: EventEmitter2,
  ) {}

  // ---- issuing ---------------------------------------------------------------------------------

  /** A fresh key that no license uses yet (a collision of 125 random bits is not expected, but is handled). */
  async generateUniqueKey(): Promise<string> {
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const key = generateLicenseKey();
      if (!(await this.licenses.existsBy({ license_key: key }))) return key;
    }
    throw new Error('Could not generate an unused license key');
  }

  /** Inserts a license; a generated key that collides is replaced and the insert retried. */
  async issue(fields: NewLicense): Promise<LicenseEntity> {
    const syncedAt = await this.selfSyncStamp();
    for (let attempt = 0; ; attempt++) {
      const license_key = fields.license_key ?? generateLicenseKey();
      try {
        const result = await this.licenses.insert({
          license_key,
          product_name: fields.product_name,
          user_id: fields.user_id,
          user_email: fields.user_email,
          is_trial: fields.is_trial,
          expires_at: fields.expires_at,
          max_activations: fields.max_activations,
          current_activations: 0,
          status: fields.status ?? 'active',
          order_id: fields.order_id ?? null,
          synced_at: syncedAt,
        });
        const id = result.identifiers[0].id as number;
        if (!syncedAt) notify(this.events, LICENSE_CHANGED, { licenseId: id });
        return await this.licenses.findOneByOrFail({ id });
      } catch (error) {
        const keyTaken = isUniqueViolation(error) && /license_key/.test(String((error as Error).message));
        if (keyTaken && fields.license_key) throw keyInUse();
        if (keyTaken && attempt < KEY_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  /**
   * A test license for the signed-in user. Duration and devices come from the settings; refused (403) when
   * test licenses are off, and (409) when the user already holds test_license.max_per_user of them.
   */
  async createTrial(user: AuthUser, productName: string): Promise<LicenseEntity> {
    const all = await this.settings.getAll();
    if (!this.settings.trialsEnabled(all)) throw ApiError.forbidden('Test licenses are currently not available.');
    const max = all.test_license.max_per_user;
    const tooMany = () => ApiError.conflict(`You have reached the limit of ${max} test license${max === 1 ? '' : 's'} per account.`);
    if ((await this.licenses.countBy({ user_id: user.id, is_trial: true })) >= max) throw tooMany();

    const license = await this.issue({
      product_name: productName,
      user_id: user.id,
      user_email: user.email,
      is_trial: true,
      expires_at: new Date(Date.now() + all.test_license.duration_days * DAY_MS),
      max_activations: all.test_license.max_devices,
    });
    // Two requests at once may both pass the count; the later row (higher id) beyond the limit is withdrawn.
    const rank = await this.licenses.countBy({ user_id: user.id, is_trial: true, id: LessThanOrEqual(license.id) });
    if (rank > max) {
      await this.licenses.delete({ id: license.id });
      throw tooMany();
    }
    return license;
  }

  /** The license an order pays for; idempotent: a second call for the same order returns the first license. */
  async issueForOrder(order: OrderedLicense): Promise<LicenseEntity> {
    const existing = await this.licenses.findOneBy({ order_id: order.order_id });
    if (existing) return existing;
    try {
      return await this.issue({
        product_name: order.product_name,
        user_id: order.user_id,
        user_email: order.user_email,
        is_trial: false,
        expires_at: addMonths(new Date(), order.months),
        max_activations: order.devices,
        order_id: order.order_id,
      });
    } catch (error) {
      // The unique order_id: another attempt for this order won the race; theirs is the license.
      if (isUniqueViolation(error)) {
        const winner = await this.licenses.findOneBy({ order_id: order.order_id });
        if (winner) return winner;
      }
      throw error;
    }
  }

  // ---- the client's view -----------------------------------------------------------------------

  /** The user's licenses, newest first. Licenses an admin made for this e-mail before the account existed are claimed first. */
  async listForUser(user: AuthUser, page: number, limit: number): Promise<LicensePage> {
    await this.claimByEmail(user);
    await this.expireDue();
    const [rows, total] = await this.licenses.findAndCount({
      where: { user_id: user.id },
      order: { created_at: 'DESC', id: 'DESC' },
      skip: (page - 1) * limit,
      take: limit,
    });
    return { rows, total, page, limit };
  }

  /** A license its owner (or an admin) may see; anyone else gets the same 404 as for a missing id. */
  async getVisible(id: number, user: AuthUser): Promise<LicenseEntity> {
    const license = await this.licenses.findOneBy({ id });
    if (!license || (user.role !== 'admin' && license.user_id !== user.id)) throw ApiError.notFound('License not found');
    return this.withCurrentStatus(license);
  }

  /**
   * Whether a key is usable now. Any signed-in user may check any key (e.g. one a colleague passed on);
   * only product, status and expiry are told for keys of others, the full license only to its owner or an admin.
   */
  async verify(key: string, user: AuthUser): Promise<LicenseVerificationDto> {
    const licenseKey = normalizeLicenseKey(key);
    const found = await this.licenses.findOneBy({ license_key: licenseKey });
    if (!found)
      return {
        license_key: licenseKey,
        valid: false,
        code: 'NOT_FOUND',
        status: null,
        product_name: null,
        expires_at: null,
        owned: false,
        license: null,
      };
    const license = await this.withCurrentStatus(found);
    const owned = license.user_id === user.id;
    const code = ({ active: 'VALID', expired: 'EXPIRED', revoked: 'REVOKED', pending: 'PENDING' } as const)[license.status];
    return {
      license_key: license.license_key,
      valid: code === 'VALID',
      code,
      status: license.status,
      product_name: license.product_name,
      expires_at: license.expires_at,
      owned,
      license: owned || user.role === 'admin' ? toLicenseDto(license) : null,
    };
  }

  /** The signed license.key of a license the caller may see. Revoked and pending licenses have none. */
  async licenseFile(id: number, user: AuthUser): Promise<string> {
    const license = await this.getVisible(id, user);
    if (license.status === 'revoked') throw ApiError.conflict('This license has been revoked; there is no license file for it.');
    if (license.status === 'pending') throw ApiError.conflict('This license is not active yet; there is no license file for it.');
    return encodeLicenseFile(
      {
        v: 1,
        kid: this.signing.keyId,
        license_key: license.license_key,
        product: license.product_name,
        user: license.user_email,
        expires_at: license.expires_at.toISOString(),
        max_activations: license.max_activations,
        is_trial: license.is_trial,
        issued_at: new Date().toISOString(),
      },
      (data) => this.signing.sign(data),
    );
  }

  // ---- lookups for the activation API ----------------------------------------------------------

  findByKey(key: string): Promise<LicenseEntity | null> {
    return this.licenses.findOneBy({ license_key: normalizeLicenseKey(key) });
  }

  findById(id: number): Promise<LicenseEntity | null> {
    return this.licenses.findOneBy({ id });
  }

  /** The licenses that fulfil these orders, by order id. */
  async findByOrderIds(orderIds: number[]): Promise<Map<number, LicenseEntity>> {
    if (!orderIds.length) return new Map();
    const rows = await this.licenses.findBy({ order_id: In(orderIds) });
    return new Map(rows.map((license) => [license.order_id!, license]));
  }

  /**
   * Takes one seat if the license is active, unexpired and has one free: a single conditional UPDATE,
   * so simultaneous activations can never go past max_activations.
   */
  async takeSeat(licenseId: number): Promise<boolean> {
    const result = await this.licenses
      .createQueryBuilder()
      .update()
      .set({ current_activations: () => 'current_activations + 1' })
      .where('id = :id AND status = :active AND expires_at > :now AND current_activations < max_activations', {
        id: licenseId,
        active: 'active',
        now: new Date(),
      })
      .execute();
    return result.affected === 1;
  }

  /** Gives back seats of deactivated devices (never below zero). */
  async releaseSeats(licenseId: number, count = 1): Promise<void> {
    const n = Math.floor(count);
    if (!(n > 0)) return;
    await this.licenses
      .createQueryBuilder()
      .update()
      .set({ current_activations: () => `CASE WHEN current_activations > ${n} THEN current_activations - ${n} ELSE 0 END` })
      .where('id = :id', { id: licenseId })
      .execute();
  }

  // ---- admin -----------------------------------------------------------------------------------

  async list(query: ListAdminLicensesQueryDto): Promise<LicensePage> {
    await this.expireDue();
    const page = query.page ?? 1;
    const limit = query.limit ?? 25;
    const qb = this.licenses.createQueryBuilder('l');
    whereSearch(qb, ['l.license_key', 'l.user_email', 'l.product_name'], query.search);
    if (query.status) qb.andWhere('l.status = :status', { status: query.status });
    if (query.is_trial !== undefined) qb.andWhere('l.is_trial = :trial', { trial: query.is_trial });
    const direction = (query.order ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
    const sort = ADMIN_LICENSE_SORT_KEYS.includes(query.sort!) ? query.sort! : 'created_at';
    qb.orderBy(`l.${sort}`, direction).addOrderBy('l.id', direction);
    const [rows, total] = await qb
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { rows, total, page, limit };
  }

  async get(id: number): Promise<LicenseEntity> {
    const license = await this.licenses.findOneBy({ id });
    if (!license) throw ApiError.notFound(`License ${id} not found`);
    return this.withCurrentStatus(license);
  }

  /** The product names the admin Create License form offers. */
  async adminProductChoices(): Promise<string[]> {
    const { name } = await this.settings.get('app_info');
    return ADMIN_PRODUCT_TIERS.map((tier) => `${name} ${tier}`);
  }

  async create(dto: CreateAdminLicenseDto): Promise<LicenseEntity> {
    const choices = await this.adminProductChoices();
    if (!choices.includes(dto.product_name)) {
      const message = `Product must be one of ${choices.join(', ')}`;
      throw ApiError.badRequest(message, { product_name: [message] });
    }
    const expiresAt = parseExpiry(dto.expires_at);
    if (expiresAt.getTime() <= Date.now()) {
      throw ApiError.badRequest('Expiry date must be in the future', { expires_at: ['Expiry date must be in the future'] });
    }
    let licenseKey: string | undefined;
    if (dto.license_key) {
      licenseKey = normalizeLicenseKey(dto.license_key);
      if (!isValidTypedKey(licenseKey)) {
        const message = `License key must be ${TYPED_KEY_RULE}`;
        throw ApiError.badRequest(message, { license_key: [message] });
      }
      if (await this.licenses.existsBy({ license_key: licenseKey })) throw keyInUse();
    }
    const owner = await this.users.findByEmail(dto.user_email);
    return this.issue({
      product_name: dto.product_name,
      user_id: owner?.id ?? null,
      user_email: dto.user_email,
      is_trial: dto.is_trial ?? false,
      expires_at: expiresAt,
      max_activations: dto.max_activations ?? 1,
      status: dto.status ?? 'active',
      license_key: licenseKey,
    });
  }

  async update(id: number, dto: UpdateAdminLicenseDto): Promise<LicenseEntity> {
    const license = await this.get(id);
    const changes: Partial<LicenseEntity> = {};
    if (dto.product_name !== undefined) {
      const choices = await this.adminProductChoices();
      // An existing product name (e.g. "StreamHub v2.1.0" from a client) may stay; a new one must be a choice.
      if (dto.product_name !== license.product_name && !choices.includes(dto.product_name)) {
        const message = `Product must be one of ${choices.join(', ')}`;
        throw ApiError.badRequest(message, { product_name: [message] });
      }
      changes.product_name = dto.product_name;
    }
    if (dto.user_email !== undefined && dto.user_email !== license.user_email) {
      changes.user_email = dto.user_email;
      changes.user_id = (await this.users.findByEmail(dto.user_email))?.id ?? null;
    }
    if (dto.max_activations !== undefined) changes.max_activations = dto.max_activations;
    if (dto.is_trial !== undefined) changes.is_trial = dto.is_trial;
    if (dto.expires_at !== undefined) {
      changes.expires_at = parseExpiry(dto.expires_at);
      // A new expiry decides between active and expired; revoked and pending stay as they are.
      if (license.status === 'active' || license.status === 'expired') {
        changes.status = changes.expires_at.getTime() > Date.now() ? 'active' : 'expired';
      }
    }
    await this.saveChanges(id, changes);
    return this.get(id);
  }

  /**
   * Deletes a license for good, after deactivating its devices. `server_revocation_success` is true when the
   * license is gone from the license server too: always, while the portal is its own license server.
   */
  async remove(id: number): Promise<{ license: LicenseEntity; deactivated: number; serverRevocationSuccess: boolean }> {
    const license = await this.get(id);
    // Revoked first, so no activation can take a seat between the deactivation and the delete.
    await this.licenses.update({ id }, { status: 'revoked' });
    const deactivated = await this.deactivateDevices(id);
    await this.licenses.delete({ id });
    const answers = await emitAwaited(this.events, LICENSE_DELETED, { licenseKey: license.license_key });
    const serverRevocationSuccess = answers.every(Boolean);
    return { license, deactivated, serverRevocationSuccess };
  }

  /** Revokes: status revoked, every device deactivated. Can be undone with activate. */
  async revoke(id: number): Promise<{ license: LicenseEntity; deactivated: number }> {
    await this.get(id);
    await this.saveChanges(id, { status: 'revoked' });
    const deactivated = await this.deactivateDevices(id);
    return { license: await this.get(id), deactivated };
  }

  /** Makes a revoked or pending license active again; an expired one needs extending instead. */
  async activate(id: number): Promise<LicenseEntity> {
    const license = await this.get(id);
    if (license.status === 'active') return license;
    if (license.expires_at.getTime() <= Date.now()) {
      throw ApiError.conflict('This license has expired; extend it to make it active again.');
    }
    await this.saveChanges(id, { status: 'active' });
    return this.get(id);
  }

  /** Moves the expiry on by `days` or `months` (default 30 days), from the current expiry or from now if it has passed. */
  async extend(id: number, dto: ExtendLicenseDto = {}): Promise<LicenseEntity> {
    if (dto.days !== undefined && dto.months !== undefined) {
      throw ApiError.badRequest('Give days or months, not both', { days: ['Give days or months, not both'] });
    }
    const license = await this.get(id);
    const base = new Date(Math.max(Date.now(), license.expires_at.getTime()));
    const expiresAt = dto.months !== undefined ? addMonths(base, dto.months) : new Date(base.getTime() + (dto.days ?? 30) * DAY_MS);
    if (expiresAt.getTime() > MAX_EXPIRY.getTime()) {
      const message = 'The new expiry would pass 9999-12-31; extend by less.';
      throw ApiError.badRequest(message, { [dto.months !== undefined ? 'months' : 'days']: [message] });
    }
    const status: LicenseStatus = license.status === 'expired' ? 'active' : license.status;
    await this.saveChanges(id, { expires_at: expiresAt, status });
    return this.get(id);
  }

  /** Licenses issued per UTC day from `from` to `to`, trial and paid apart. */
  async issuedPerDay(from: Date, to: Date): Promise<Array<{ day: string; trial: number; paid: number }>> {
    const isMysql = ['mysql', 'mariadb'].includes(this.licenses.manager.connection.options.type);
    const day = isMysql ? "DATE_FORMAT(l.created_at, '%Y-%m-%d')" : 'substr(l.created_at, 1, 10)';
    const rows = await this.licenses
      .createQueryBuilder('l')
      .select(day, 'day')
      .addSelect('SUM(CASE WHEN l.is_trial = :yes THEN 1 ELSE 0 END)', 'trial')
      .addSelect('SUM(CASE WHEN l.is_trial = :yes THEN 0 ELSE 1 END)', 'paid')
      .where('l.created_at >= :from AND l.created_at <= :to', { from, to, yes: true })
      .groupBy(day)
      .orderBy(day)
      .getRawMany<{ day: string; trial: string | number; paid: string | number }>();
    return rows.map((row) => ({ day: row.day, trial: Number(row.trial), paid: Number(row.paid) }));
  }

  /** Licenses that were active at `at`: issued before it, not yet expired then, and not revoked since. */
  async countActiveAt(at: Date): Promise<number> {
    return this.licenses
      .createQueryBuilder('l')
      .where('l.created_at < :at AND l.expires_at > :at AND l.status <> :revoked', { at, revoked: 'revoked' })
      .getCount();
  }

  async stats(): Promise<LicenseStatsDto> {
    await this.expireDue();
    const rows = await this.licenses
      .createQueryBuilder('l')
      .select('l.status', 'status')
      .addSelect('l.is_trial', 'is_trial')
      .addSelect('COUNT(*)', 'count')
      .addSelect('SUM(l.current_activations)', 'activations')
      .addSelect('SUM(l.max_activations)', 'seats')
      .groupBy('l.status')
      .addGroupBy('l.is_trial')
      .getRawMany<{
        status: LicenseStatus;
        is_trial: number | boolean | string;
        count: string | number;
        activations: string | number | null;
        seats: string | number | null;
      }>();
    const stats: LicenseStatsDto = {
      total: 0,
      active: 0,
      expired: 0,
      revoked: 0,
      pending: 0,
      trial: 0,
      paid: 0,
      expiring_soon: 0,
      total_activations: 0,
      total_max_activations: 0,
    };
    for (const row of rows) {
      const count = Number(row.count);
      stats.total += count;
      if (row.status in stats) stats[row.status] += count;
      if (Number(row.is_trial) === 1 || row.is_trial === true) stats.trial += count;
      else stats.paid += count;
      stats.total_activations += Number(row.activations ?? 0);
      if (row.status === 'active') stats.total_max_activations += Number(row.seats ?? 0);
    }
    stats.expiring_soon = await this.licenses.countBy({
      status: 'active',
      expires_at: LessThanOrEqual(new Date(Date.now() + EXPIRES_SOON_DAYS * DAY_MS)),
    });
    return stats;
  }

  /** Every license matching the filters, in id order, a thousand at a time (so a large export stays small in memory). */
  async *exportBatches(filter: { search?: string; status?: LicenseStatus }): AsyncGenerator<LicenseEntity[]> {
    await this.expireDue();
    let afterId = 0;
    for (;;) {
      const qb = this.licenses.createQueryBuilder('l').where('l.id > :afterId', { afterId });
      whereSearch(qb, ['l.license_key', 'l.user_email', 'l.product_name'], filter.search);
      if (filter.status) qb.andWhere('l.status = :status', { status: filter.status });
      const rows = await qb.orderBy('l.id', 'ASC').take(1000).getMany();
      if (!rows.length) return;
      yield rows;
      afterId = rows[rows.length - 1].id;
    }
  }

  /** Moves active licenses past their expiry to expired: every minute, and before lists and stats are read. */
  @Cron(CronExpression.EVERY_MINUTE, { name: 'license-expiry' })
  async expireDue(): Promise<number> {
    try {
      const result = await this.licenses
        .createQueryBuilder()
        .update()
        .set({ status: 'expired' })
        .where('status = :active AND expires_at <= :now', { active: 'active', now: new Date() })
        .execute();
      return result.affected ?? 0;
    } catch (error) {
      this.logger.error(`Expiring licenses failed: ${(error as Error).message}`);
      return 0;
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private async withCurrentStatus(license: LicenseEntity): Promise<LicenseEntity> {
    if (effectiveStatus(license) === 'expired' && license.status === 'active') {
      await this.licenses.update({ id: license.id, status: 'active' }, { status: 'expired' });
      license.status = 'expired';
    }
    return license;
  }

  /** Links licenses an admin issued to this (verified) e-mail address before the account existed. */
  private async claimByEmail(user: AuthUser): Promise<void> {
    await this.licenses
      .createQueryBuilder()
      .update()
      .set({ user_id: user.id })
      .where('user_id IS NULL AND user_email = :email', { email: user.email })
      .execute();
  }

  /** The sync stamp of a change: now while the portal is its own license server, else null (pending) until pushed. */
  private async selfSyncStamp(): Promise<Date | null> {
    return (await this.settings.get('license_server')).url === '' ? new Date() : null;
  }

  /** An admin's change: stored with its sync stamp, and handed to the sync when it must reach the license server. */
  private async saveChanges(id: number, changes: Partial<LicenseEntity>): Promise<void> {
    const syncedAt = await this.selfSyncStamp();
    await this.licenses.update({ id }, { ...changes, synced_at: syncedAt });
    if (!syncedAt) notify(this.events, LICENSE_CHANGED, { licenseId: id });
  }

  /** Every device of a revoked license gives its seat back (the devices module listens); returns how many. */
  private async deactivateDevices(licenseId: number): Promise<number> {
    const answers = await emitAwaited(this.events, LICENSE_REVOKED, { licenseId });
    return answers.reduce((sum, count) => sum + count, 0);
  }

  // ---- syncing with a license server -----------------------------------------------------------

  /** Licenses changed here that the external license server has not confirmed yet, oldest first. */
  pendingForServer(limit: number): Promise<LicenseEntity[]> {
    return this.licenses.find({ where: { synced_at: IsNull() }, order: { id: 'ASC' }, take: limit });
  }

  /** Confirms pushed licenses as synced, each only if it still holds what was pushed (a newer change stays pending). */
  async markSynced(pushed: SyncedLicense[], at: Date): Promise<void> {
    for (const license of pushed) await this.licenses.update({ ...toSyncedLicense(license), synced_at: IsNull() }, { synced_at: at });
  }

  /** While the portal is its own license server, every pending license is live here: they are confirmed now. */
  async confirmAllPending(at: Date): Promise<number> {
    return (await this.licenses.update({ synced_at: IsNull() }, { synced_at: at })).affected ?? 0;
  }

  /**
   * The license server's licenses, taken over here: new keys are added (linked to the account with their
   * e-mail), known ones follow the server (status, expiry, seats), except those changed here and not pushed yet.
   */
  async applyFromServer(states: SyncedLicenseState[], at: Date): Promise<{ created: number; updated: number }> {
    if (!states.length) return { created: 0, updated: 0 };
    const known = await this.byKeys(states);
    let created = 0;
    let updated = 0;
    for (const state of states) {
      const local = known.get(state.license_key);
      if (!local) {
        await this.insertSynced(state, state.current_activations, at);
        created++;
        continue;
      }
      if (local.synced_at === null) continue;
      const changes: Partial<LicenseEntity> = { synced_at: at };
      for (const field of SYNCED_FIELDS) if (local[field] !== state[field]) Object.assign(changes, { [field]: state[field] });
      if (local.expires_at.getTime() !== state.expires_at.getTime()) changes.expires_at = state.expires_at;
      if (local.current_activations !== state.current_activations) changes.current_activations = state.current_activations;
      if (changes.user_email !== undefined) changes.user_id = (await this.users.findByEmail(changes.user_email))?.id ?? null;
      if (Object.keys(changes).length > 1) updated++;
      await this.licenses.update({ id: local.id, synced_at: Not(IsNull()) }, changes);
    }
    return { created, updated };
  }

  /**
   * Licenses pushed by a portal that uses this one as its license server: created or updated by key; a revoked
   * one loses its devices here. Returns counts and each license as this server now holds it.
   */
  async upsertFromPortal(items: SyncedLicense[]): Promise<{ created: number; updated: number; licenses: SyncedLicenseState[] }> {
    const at = new Date();
    let created = 0;
    let updated = 0;
    const known = await this.byKeys(items);
    // A key pushed twice in one batch counts once, as last pushed.
    for (const item of new Map(items.map((pushed) => [pushed.license_key, pushed])).values()) {
      const local = known.get(item.license_key);
      if (!local) {
        await this.insertSynced(item, 0, at);
        created++;
        continue;
      }
      const changed =
        SYNCED_FIELDS.some((field) => local[field] !== item[field]) || local.expires_at.getTime() !== item.expires_at.getTime();
      if (!changed) continue;
      const changes: Partial<LicenseEntity> = { ...toSyncedLicense(item), synced_at: at };
      if (item.user_email !== local.user_email) changes.user_id = (await this.users.findByEmail(item.user_email))?.id ?? null;
      await this.licenses.update({ id: local.id }, changes);
      if (item.status === 'revoked' && local.status !== 'revoked') await this.deactivateDevices(local.id);
      updated++;
    }
    const stored = await this.byKeys(items);
    return { created, updated, licenses: [...stored.values()].map(toSyncedState) };
  }

  /** The stored licenses of the given keys, by key. */
  private async byKeys(items: Array<{ license_key: string }>): Promise<Map<string, LicenseEntity>> {
    const rows = await this.licenses.findBy({ license_key: In(items.map((item) => item.license_key)) });
    return new Map(rows.map((row) => [row.license_key, row]));
  }

  /** A license that came by sync, linked to the account with its e-mail (if there is one). */
  private async insertSynced(license: SyncedLicense, seats: number, at: Date): Promise<void> {
    const owner = await this.users.findByEmail(license.user_email);
    await this.licenses.insert({ ...toSyncedLicense(license), current_activations: seats, user_id: owner?.id ?? null, synced_at: at });
  }

  /** This server's licenses after `afterId`, by id (for a portal that syncs from this one). */
  async listForSync(afterId: number, limit: number): Promise<SyncedLicenseState[]> {
    await this.expireDue();
    const rows = await this.licenses.find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
    return rows.map(toSyncedState);
  }

  /** Revokes a license by key for a portal that deleted it; `found` is false when this server never had it. */
  async revokeByKey(key: string): Promise<{ found: boolean; deactivated: number }> {
    const license = await this.findByKey(key);
    if (!license) return { found: false, deactivated: 0 };
    await this.licenses.update({ id: license.id }, { status: 'revoked', synced_at: new Date() });
    return { found: true, deactivated: await this.deactivateDevices(license.id) };
  }
}

/** Just the fields portals exchange about a license. */
export function toSyncedLicense(license: SyncedLicense): SyncedLicense {
  const { license_key, product_name, user_email, status, expires_at, max_activations, is_trial } = license;
  return { license_key, product_name, user_email, status, expires_at, max_activations, is_trial };
}

function toSyncedState(license: LicenseEntity): SyncedLicenseState {
  return {
    ...toSyncedLicense(license),
    status: effectiveStatus(license),
    id: license.id,
    current_activations: license.current_activations,
  };
}

function keyInUse(): ApiError {
  return ApiError.conflict('This license key is already in use', { license_key: ['This license key is already in use'] });
}
