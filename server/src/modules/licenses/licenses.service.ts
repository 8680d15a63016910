import type { Channel } from '../versions/versions.constants';
import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Cron, CronExpression } from '@nestjs/schedule';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { emitAwaited, LICENSE_CHANGED, LICENSE_REVOKED, LICENSES_WRITTEN, notify } from '../../common/events';
import { ScheduledJobsService } from '../jobs/scheduled-jobs.service';
import { SettingsService } from '../settings/settings.service';
import { LicenseVerificationDto, toLicenseDto } from './dto/license.dto';
import { encodeLicenseFile } from './license-file';
import { generateLicenseKey, normalizeLicenseKey } from './license-key';
import { LicenseSigningService } from './license-signing.service';
import { addMonths, asOf, DAY_MS } from './license-status';
import { LicenseEntity, LicenseStatus } from './license.entity';
import { LicensePage, LicensesRepository } from './licenses.repository';

// What other modules use of the license rules, through this service.
export { effectiveStatus, MAX_EXPIRY } from './license-status';
export type { LicensePage } from './licenses.repository';
export type { LicenseEntity } from './license.entity';
export { normalizeLicenseKey } from './license-key';
export { keyPrefixes } from './licenses.repository';

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
  /** The release channel granted (default stable). */
  channel?: Channel;
  /** The end of updates (default: the expiry). */
  updates_until?: Date | null;
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

const KEY_ATTEMPTS = 5;

const trialLimitReached = (max: number) =>
  ApiError.conflict(`You have reached the limit of ${max} test license${max === 1 ? '' : 's'} per account.`);

/** Licenses as clients and the activation API see them, and the rules the admin and sync services build on. */
@Injectable()
export class LicensesService {
  private readonly logger = new Logger('Licenses');

  constructor(
    private readonly licenses: LicensesRepository,
    private readonly settings: SettingsService,
    private readonly signing: LicenseSigningService,
    private readonly events: EventEmitter2,
    private readonly jobs: ScheduledJobsService,
  ) {}

  /** A fresh key that no license uses yet (a collision of 125 random bits is not expected, but is handled). */
  async generateUniqueKey(): Promise<string> {
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const key = generateLicenseKey();
      if (!(await this.licenses.keyExists(key))) return key;
    }
    throw new Error('Could not generate an unused license key');
  }

  /** A generated key that collides is replaced and retried; an order whose license another attempt won the race for gets that one. */
  async issue(fields: NewLicense): Promise<LicenseEntity> {
    const syncedAt = await this.selfSyncStamp();
    for (let attempt = 0; attempt <= KEY_ATTEMPTS; attempt++) {
      const id = await this.licenses.insertUnlessTaken({
        license_key: fields.license_key ?? generateLicenseKey(),
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
        channel: fields.channel ?? 'stable',
        updates_until: fields.updates_until ?? null,
      });
      if (id !== null) {
        this.written();
        if (!syncedAt) notify(this.events, LICENSE_CHANGED, { licenseId: id });
        return this.licenses.getById(id);
      }
      const winner = fields.order_id == null ? null : await this.licenses.findByOrderId(fields.order_id);
      if (winner) return winner;
      if (fields.license_key) throw keyInUse();
    }
    throw new Error('Could not generate an unused license key');
  }

  /** Why `user` may not take a test license now (null: they may); createTrial refuses with the same. */
  async trialRefusal(user: AuthUser, settings?: Awaited<ReturnType<SettingsService['getAll']>>): Promise<ApiError | null> {
    const all = settings ?? (await this.settings.getAll());
    if (!this.settings.trialsEnabled(all)) return ApiError.forbidden('Test licenses are currently not available.');
    const max = all.test_license.max_per_user;
    return (await this.licenses.countTrials(user.id)) >= max ? trialLimitReached(max) : null;
  }

  /** Refused (403) while test licenses are off, and (409) once the user holds test_license.max_per_user of them. */
  async createTrial(user: AuthUser, productName: string): Promise<LicenseEntity> {
    // One read of the settings for the refusal and the license it gives.
    const all = await this.settings.getAll();
    const refusal = await this.trialRefusal(user, all);
    if (refusal) throw refusal;
    const max = all.test_license.max_per_user;

    const license = await this.issue({
      product_name: productName,
      user_id: user.id,
      user_email: user.email,
      is_trial: true,
      expires_at: new Date(Date.now() + all.test_license.duration_days * DAY_MS),
      max_activations: all.test_license.max_devices,
    });
    // Two requests at once may both pass the count; the later row (higher id) beyond the limit is withdrawn.
    const rank = await this.licenses.countTrials(user.id, license.id);
    if (rank > max) {
      await this.licenses.delete(license.id);
      this.written();
      throw trialLimitReached(max);
    }
    return license;
  }

  /** The license an order pays for; idempotent: a second call for the same order returns the first license. */
  async issueForOrder(order: OrderedLicense): Promise<LicenseEntity> {
    const existing = await this.licenses.findByOrderId(order.order_id);
    if (existing) return existing;
    return this.issue({
      product_name: order.product_name,
      user_id: order.user_id,
      user_email: order.user_email,
      is_trial: false,
      expires_at: addMonths(new Date(), order.months),
      max_activations: order.devices,
      order_id: order.order_id,
    });
  }

  /** The user's licenses, newest first. Licenses an admin made for this e-mail before the account existed are claimed first. */
  async listForUser(user: AuthUser, page: number, limit: number): Promise<LicensePage> {
    await this.licenses.claimByEmail(user.id, user.email);
    const found = await this.licenses.pageForUser(user.id, page, limit);
    const now = Date.now();
    return { ...found, rows: found.rows.map((license) => asOf(license, now)) };
  }

  /** A license its owner (or an admin) may see; anyone else gets the same 404 as for a missing id. */
  async getVisible(id: number, user: AuthUser): Promise<LicenseEntity> {
    const license = await this.licenses.findById(id);
    if (!license || (user.role !== 'admin' && license.user_id !== user.id)) throw ApiError.notFound('License not found');
    return asOf(license);
  }

  /** Any signed-in user may check any key (e.g. a colleague's); only its owner or an admin sees the full license. */
  async verify(key: string, user: AuthUser): Promise<LicenseVerificationDto> {
    const licenseKey = normalizeLicenseKey(key);
    const found = await this.licenses.findByKey(licenseKey);
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
    const license = asOf(found);
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
    const key = await this.signing.current();
    return encodeLicenseFile(
      {
        v: 1,
        kid: key.kid,
        license_key: license.license_key,
        product: license.product_name,
        user: license.user_email,
        expires_at: license.expires_at.toISOString(),
        max_activations: license.max_activations,
        is_trial: license.is_trial,
        issued_at: new Date().toISOString(),
      },
      (data) => key.sign(data),
    );
  }

  findByKey(key: string): Promise<LicenseEntity | null> {
    return this.licenses.findByKey(normalizeLicenseKey(key));
  }

  findById(id: number): Promise<LicenseEntity | null> {
    return this.licenses.findById(id);
  }

  /** The licenses that fulfil these orders, by order id. */
  async findByOrderIds(orderIds: number[]): Promise<Map<number, LicenseEntity>> {
    if (!orderIds.length) return new Map();
    const rows = await this.licenses.findByOrderIds(orderIds);
    return new Map(rows.map((license) => [license.order_id!, license]));
  }

  /** Takes one seat if the license is active, unexpired and has one free (atomically: never past max_activations). */
  async takeSeat(licenseId: number): Promise<boolean> {
    const taken = await this.licenses.takeSeat(licenseId);
    this.written();
    return taken;
  }

  /** Gives back seats of deactivated devices (never below zero). */
  async releaseSeats(licenseId: number, count = 1): Promise<void> {
    const n = Math.floor(count);
    if (!(n > 0)) return;
    await this.licenses.releaseSeats(licenseId, n);
    this.written();
  }

  /** On one instance (the job's lease); reads never wait for it: they derive the status from expires_at (asOf, whereStatus). */
  @Cron(CronExpression.EVERY_MINUTE, { name: 'license-expiry' })
  async expiryJob(): Promise<void> {
    await this.jobs.run('license-expiry', 60, () => this.expireNow());
  }

  /** Moves active licenses past their expiry to expired now; returns how many (the job's work). */
  async expireDue(): Promise<number> {
    try {
      return await this.expireNow();
    } catch (error) {
      this.logger.error(`Expiring licenses failed: ${(error as Error).message}`);
      return 0;
    }
  }

  private async expireNow(): Promise<number> {
    const expired = await this.licenses.expireDue(new Date());
    if (expired) this.written();
    return expired;
  }

  /** An admin's change: stored with its sync stamp, and announced when it must reach the license server. */
  async saveChanges(id: number, changes: Partial<LicenseEntity>): Promise<void> {
    const syncedAt = await this.selfSyncStamp();
    await this.licenses.update(id, { ...changes, synced_at: syncedAt });
    this.written();
    if (!syncedAt) notify(this.events, LICENSE_CHANGED, { licenseId: id });
  }

  /** Every device of a revoked license gives its seat back (the devices module listens); returns how many. */
  async deactivateDevices(licenseId: number): Promise<number> {
    const answers = await emitAwaited(this.events, LICENSE_REVOKED, { licenseId });
    return answers.reduce((sum, count) => sum + count, 0);
  }

  /** Licenses were written here: the admin list's totals and the stats count anew (AdminLicensesService). */
  written(): void {
    notify(this.events, LICENSES_WRITTEN, {});
  }

  /** The sync stamp of a change: now while the portal is its own license server, else null (pending) until pushed. */
  private async selfSyncStamp(): Promise<Date | null> {
    return (await this.settings.get('license_server')).url === '' ? new Date() : null;
  }
}

export function keyInUse(): ApiError {
  return ApiError.conflict('This license key is already in use', { license_key: ['This license key is already in use'] });
}
