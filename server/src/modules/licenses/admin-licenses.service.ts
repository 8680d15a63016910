import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import { emitAwaited, LICENSE_DELETED, LICENSES_WRITTEN, OnNotification } from '../../common/events';
import { ListTotals } from '../../common/list-totals';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import { CreateAdminLicenseDto, ExtendLicenseDto, ListAdminLicensesQueryDto, UpdateAdminLicenseDto } from './dto/admin-license.dto';
import { LicenseStatsDto } from './dto/license.dto';
import { isValidTypedKey, normalizeLicenseKey, TYPED_KEY_RULE } from './license-key';
import { asOf, DAY_MS, extendedExpiry, MAX_EXPIRY, parseExpiry, statusForExpiry } from './license-status';
import { RawLicenseRow } from './license-export';
import { LicenseEntity, LicenseStatus } from './license.entity';
import { LicensePage, LicensesRepository } from './licenses.repository';
import { keyInUse, LicensesService } from './licenses.service';

export const ADMIN_PRODUCT_TIERS = ['Pro', 'Enterprise', 'Basic'] as const;
const EXPIRES_SOON_DAYS = 30;
/** Licenses per export batch: read, written and sent without holding the event loop for long. */
const EXPORT_BATCH = 1_000;

/** License Management for admins: list, create, edit, revoke, activate, extend, delete, stats and export. */
@Injectable()
export class AdminLicensesService implements OnApplicationBootstrap {
  /** The list's totals, the stats and the product names the search compares with; dropped on every write here. */
  private readonly totals = new ListTotals();
  private readonly figures = new Cache<LicenseStatsDto>({ max: 1, ttlMs: 60_000, staleWhileRevalidate: true });
  private readonly productNames = new Cache<string[]>({ max: 1, ttlMs: 60_000, staleWhileRevalidate: true });

  constructor(
    private readonly licenses: LicensesRepository,
    private readonly core: LicensesService,
    private readonly settings: SettingsService,
    private readonly users: UsersService,
    private readonly events: EventEmitter2,
  ) {}

  /** Counts the stats once at start, in the background, so the first admin to open them does not wait for the count. */
  onApplicationBootstrap(): void {
    setTimeout(() => void this.stats().catch(() => undefined), 0);
  }

  @OnNotification(LICENSES_WRITTEN)
  licensesWritten(): void {
    this.totals.clear();
    this.figures.clear();
    this.productNames.clear();
  }

  /** The list as of now (reads never write: an active license past its expiry shows, and filters, as expired). */
  async list(query: ListAdminLicensesQueryDto): Promise<LicensePage> {
    const now = new Date();
    // Unsearched, the total of a status (or of all) is in the stats, which are kept anyway: no count of its own
    // (unless they are still being counted, just after a start or a change: then the list counts as searched ones do).
    const stats = !query.search?.trim() && query.is_trial === undefined ? this.keptStats() : undefined;
    const known = stats ? (query.status ? stats[query.status] : stats.total) : undefined;
    const found = await this.licenses.pageForAdmin(query, now, await this.productsMatching(query.search), this.totals, known);
    return { ...found, rows: found.rows.map((license) => asOf(license, now.getTime())) };
  }

  /** The product names licenses have that a search term is part of (any case); none for an e-mail. */
  private async productsMatching(search: string | undefined): Promise<string[]> {
    const term = search?.trim().toLowerCase();
    if (!term || term.includes('@')) return [];
    const names = await this.productNames.get('product-names', () => this.licenses.productNames());
    return names.filter((name) => name.toLowerCase().includes(term));
  }

  async get(id: number): Promise<LicenseEntity> {
    return asOf(ApiError.orNotFound(await this.licenses.findById(id), `License ${id} not found`));
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
      if (await this.licenses.keyExists(licenseKey)) throw keyInUse();
    }
    const owner = await this.users.findByEmail(dto.user_email);
    return this.core.issue({
      product_name: dto.product_name,
      user_id: owner?.id ?? null,
      user_email: dto.user_email,
      is_trial: dto.is_trial ?? false,
      expires_at: expiresAt,
      max_activations: dto.max_activations ?? 1,
      status: dto.status ?? 'active',
      license_key: licenseKey,
      channel: dto.channel,
      updates_until: dto.updates_until ? parseExpiry(dto.updates_until) : null,
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
    if (dto.channel !== undefined) changes.channel = dto.channel;
    if (dto.updates_until !== undefined) changes.updates_until = dto.updates_until === null ? null : parseExpiry(dto.updates_until);
    if (dto.expires_at !== undefined) {
      changes.expires_at = parseExpiry(dto.expires_at);
      changes.status = statusForExpiry(license.status, changes.expires_at);
    }
    await this.core.saveChanges(id, changes);
    return this.get(id);
  }

  /** `server_revocation_success`: gone from the license server too (always, while the portal is its own license server). */
  async remove(id: number): Promise<{ license: LicenseEntity; deactivated: number; serverRevocationSuccess: boolean }> {
    const license = await this.get(id);
    // Revoked first, so no activation can take a seat between the deactivation and the delete.
    await this.licenses.update(id, { status: 'revoked' });
    this.licensesWritten();
    const deactivated = await this.core.deactivateDevices(id);
    await this.licenses.delete(id);
    this.licensesWritten();
    const answers = await emitAwaited(this.events, LICENSE_DELETED, { licenseKey: license.license_key });
    return { license, deactivated, serverRevocationSuccess: answers.every(Boolean) };
  }

  /** Revokes: status revoked, every device deactivated. Can be undone with activate. */
  async revoke(id: number): Promise<{ license: LicenseEntity; deactivated: number }> {
    await this.get(id);
    await this.core.saveChanges(id, { status: 'revoked' });
    const deactivated = await this.core.deactivateDevices(id);
    return { license: await this.get(id), deactivated };
  }

  /** Makes a revoked or pending license active again; an expired one needs extending instead. */
  async activate(id: number): Promise<LicenseEntity> {
    const license = await this.get(id);
    if (license.status === 'active') return license;
    if (license.expires_at.getTime() <= Date.now()) {
      throw ApiError.conflict('This license has expired; extend it to make it active again.');
    }
    await this.core.saveChanges(id, { status: 'active' });
    return this.get(id);
  }

  /** Moves the expiry on by `days` or `months` (default 30 days), from the current expiry or from now if it has passed. */
  async extend(id: number, dto: ExtendLicenseDto = {}): Promise<LicenseEntity> {
    if (dto.days !== undefined && dto.months !== undefined) {
      throw ApiError.badRequest('Give days or months, not both', { days: ['Give days or months, not both'] });
    }
    const license = await this.get(id);
    const expiresAt = extendedExpiry(license.expires_at, dto);
    if (expiresAt.getTime() > MAX_EXPIRY.getTime()) {
      const message = 'The new expiry would pass 9999-12-31; extend by less.';
      throw ApiError.badRequest(message, { [dto.months !== undefined ? 'months' : 'days']: [message] });
    }
    const status: LicenseStatus = license.status === 'expired' ? 'active' : license.status;
    await this.core.saveChanges(id, { expires_at: expiresAt, status });
    return this.get(id);
  }

  /** Kept for a minute and recounted in the background; a change made here counts anew at once. */
  stats(): Promise<LicenseStatsDto> {
    return this.figures.get('stats', () => this.countStats());
  }

  /** The stats as kept, starting a recount when they are stale or missing, without waiting for it. */
  private keptStats(): LicenseStatsDto | undefined {
    void this.stats().catch(() => undefined);
    return this.figures.peek('stats');
  }

  private async countStats(): Promise<LicenseStatsDto> {
    const now = new Date();
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
    for (const row of await this.licenses.countByStatus(now)) {
      stats.total += row.count;
      if (row.status in stats) stats[row.status] += row.count;
      if (row.is_trial) stats.trial += row.count;
      else stats.paid += row.count;
      stats.total_activations += row.activations;
      if (row.status === 'active') stats.total_max_activations += row.seats;
    }
    stats.expiring_soon = await this.licenses.countActiveExpiringBy(new Date(now.getTime() + EXPIRES_SOON_DAYS * DAY_MS), now);
    return stats;
  }

  /** Licenses issued per UTC day from `from` to `to`, trial and paid apart. */
  issuedPerDay(from: Date, to: Date): Promise<Array<{ day: string; trial: number; paid: number }>> {
    return this.licenses.issuedPerDay(from, to);
  }

  /** Licenses that were active at `at`: issued before it, not yet expired then, and not revoked since. */
  countActiveAt(at: Date): Promise<number> {
    return this.licenses.countActiveAt(at);
  }

  /** Small keyset batches (a large export stays small in memory); the next is read ahead, so the database reads meanwhile. */
  async *exportBatches(filter: { search?: string; status?: LicenseStatus }): AsyncGenerator<RawLicenseRow[]> {
    const read = await this.licenses.exportReader(filter, await this.productsMatching(filter.search));
    let next: Promise<RawLicenseRow[]> | null = read(0, EXPORT_BATCH);
    try {
      while (next) {
        const rows: RawLicenseRow[] = await next;
        next = rows.length === EXPORT_BATCH ? read(Number(rows[rows.length - 1].id), EXPORT_BATCH) : null;
        if (rows.length) yield rows;
      }
    } finally {
      // The client went: the read ahead is not wanted, nor its failure.
      next?.catch(() => undefined);
    }
  }
}
