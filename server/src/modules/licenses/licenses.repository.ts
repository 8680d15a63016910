import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, FindOptionsWhere, In, IsNull, LessThanOrEqual, MoreThan, Not, Repository, SelectQueryBuilder } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { OffLoopReads } from '../../database/off-loop-reads';
import { Param, PreparedSql } from '../../database/prepared-sql';
import { Page } from '../../common/pagination';
import { engineOf, readPage, readPageByIds, sortColumn, startsWith } from '../../database/pages';
import type { ListTotals } from '../../common/list-totals';
import { LICENSE_EXPORT_SELECT, RawLicenseRow } from './license-export';
import { AdminLicenseSortKey, ListAdminLicensesQueryDto } from './dto/admin-license.dto';
import { LicenseEntity, LicenseStatus } from './license.entity';
import { EntityRows } from '../../database/entity-rows';
import type { Channel } from '../../common/channels';

export type LicensePage = Page<LicenseEntity>;

/** Product names the admin search compares a term with, at most (there are a few; this bounds the seeks). */
const MAX_PRODUCT_NAMES = 200;

/** A row of the status/trial breakdown behind the license stats. */
export interface LicenseStatusCount {
  status: LicenseStatus;
  is_trial: boolean;
  count: number;
  activations: number;
  seats: number;
}

/** A license to insert; its channel and end of updates take their defaults (stable; its expiry) unless given. */
export type NewLicenseRow = Omit<LicenseEntity, 'id' | 'license_key_compact' | 'channel' | 'updates_until' | 'created_at' | 'updated_at'> &
  Partial<Pick<LicenseEntity, 'channel' | 'updates_until'>>;

/** What a license grants of releases (see release-coverage.ts). */
export type LicenseGrantRow = Pick<LicenseEntity, 'channel' | 'updates_until' | 'expires_at'>;

/** The key as the search compares it: capitals, no blanks or hyphens (license_key_compact holds keys so). */
export function compactKey(key: string): string {
  return key.toUpperCase().replace(/[\s-]/g, '');
}

/** Compact-key starts a term can be (SH- prefix or not; none under 4 letters/digits); a term starting SH may be either. */
export function keyPrefixes(term: string): string[] {
  const compact = compactKey(term);
  if (!/^[A-Z0-9]{4,}$/.test(compact)) return [];
  return compact.startsWith('SH') ? [compact, `SH${compact}`] : [`SH${compact}`];
}
const SORT_COLUMNS: Record<AdminLicenseSortKey, string> = {
  license_key: 'l.license_key',
  expires_at: 'l.expires_at',
  created_at: 'l.created_at',
};

/** For another module's hot-path statement to join licenses in one round trip while the columns stay named here. */
export const JOINABLE_LICENSES = {
  table: 'licenses l',
  id: 'l.id',
  key: 'l.license_key',
  columns:
    'l.id AS l_id, l.license_key AS l_license_key, l.product_name AS l_product_name, l.user_id AS l_user_id, ' +
    'l.user_email AS l_user_email, l.status AS l_status, l.is_trial AS l_is_trial, l.expires_at AS l_expires_at, ' +
    'l.max_activations AS l_max_activations, l.current_activations AS l_current_activations, ' +
    'l.channel AS l_channel, l.updates_until AS l_updates_until',
} as const;

/** The license in a row selected with JOINABLE_LICENSES.columns: partly filled (the fields the activation API uses). */
export function readJoinedLicense(row: Record<string, unknown>, readDate: (value: unknown) => Date | null): LicenseEntity {
  return Object.assign(new LicenseEntity(), {
    id: Number(row.l_id),
    license_key: row.l_license_key as string,
    product_name: row.l_product_name as string,
    user_id: row.l_user_id === null ? null : Number(row.l_user_id),
    user_email: row.l_user_email as string,
    status: row.l_status as LicenseStatus,
    is_trial: Boolean(row.l_is_trial),
    expires_at: readDate(row.l_expires_at)!,
    max_activations: Number(row.l_max_activations),
    current_activations: Number(row.l_current_activations),
    channel: row.l_channel as Channel,
    updates_until: readDate(row.l_updates_until),
  });
}

/** The one owner of the `licenses` table: rules live in the services, the SQL (atomic seat counters, conditional updates) here. */
@Injectable()
export class LicensesRepository {
  /** Aggregates over every license (stats, dashboard figures) read off the event loop on SQLite. */
  private readonly reads: OffLoopReads;

  /** The export's batches (see PreparedSql.bulk). */
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(LicenseEntity) private readonly licenses: Repository<LicenseEntity>) {
    this.reads = OffLoopReads.for(licenses.manager.connection);
    this.sql = PreparedSql.for(licenses.manager.connection);
  }

  findById(id: number): Promise<LicenseEntity | null> {
    return this.licenses.findOneBy({ id });
  }

  /** One that must exist (it was just written). */
  getById(id: number): Promise<LicenseEntity> {
    return this.licenses.findOneByOrFail({ id });
  }

  /** By the stored (normalized) key. */
  findByKey(licenseKey: string): Promise<LicenseEntity | null> {
    return this.licenses.findOneBy({ license_key: licenseKey });
  }

  keyExists(licenseKey: string): Promise<boolean> {
    return this.licenses.existsBy({ license_key: licenseKey });
  }

  findByOrderId(orderId: number): Promise<LicenseEntity | null> {
    return this.licenses.findOneBy({ order_id: orderId });
  }

  findByOrderIds(orderIds: number[]): Promise<LicenseEntity[]> {
    return this.licenses.findBy({ order_id: In(orderIds) });
  }

  findByKeys(licenseKeys: string[]): Promise<LicenseEntity[]> {
    return this.licenses.findBy({ license_key: In(licenseKeys) });
  }

  /** The grants of a user's licenses that count for releases: active or expired ones (not revoked, not pending). */
  grantsOf(userId: number): Promise<LicenseGrantRow[]> {
    return this.licenses.find({
      select: { channel: true, updates_until: true, expires_at: true },
      where: { user_id: userId, status: In(['active', 'expired']) },
    });
  }

  /** A user's test licenses, or (with `upToId`) those of them issued no later than that one. */
  countTrials(userId: number, upToId?: number): Promise<number> {
    return this.licenses.countBy({ user_id: userId, is_trial: true, ...(upToId === undefined ? {} : { id: LessThanOrEqual(upToId) }) });
  }

  async insert(row: NewLicenseRow | Omit<NewLicenseRow, 'order_id'>): Promise<number> {
    const result = await this.licenses.insert({ ...row, license_key_compact: compactKey(row.license_key) });
    return result.identifiers[0].id as number;
  }

  /** Inserts a license; returns its id, or null when another license has its key or its order. */
  async insertUnlessTaken(row: NewLicenseRow): Promise<number | null> {
    try {
      return await this.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Updates one license, optionally only while it still matches `where` (e.g. still pending sync). */
  async update(id: number, changes: Partial<LicenseEntity>, where: FindOptionsWhere<LicenseEntity> = {}): Promise<void> {
    await this.licenses.update({ ...where, id }, changes);
  }

  async delete(id: number): Promise<void> {
    await this.licenses.delete({ id });
  }

  /** A single conditional UPDATE, so simultaneous activations can never go past max_activations. */
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

  /** Gives back `count` seats (a positive integer) in one statement, never below zero. */
  async releaseSeats(licenseId: number, count: number): Promise<void> {
    await this.licenses.update(
      { id: licenseId },
      { current_activations: () => `CASE WHEN current_activations > ${count} THEN current_activations - ${count} ELSE 0 END` },
    );
  }

  async expireDue(now: Date): Promise<number> {
    const { affected } = await this.licenses.update({ status: 'active', expires_at: LessThanOrEqual(now) }, { status: 'expired' });
    return affected ?? 0;
  }

  /** Links the licenses issued to this e-mail address before the account existed to the account. */
  async claimByEmail(userId: number, email: string): Promise<void> {
    await this.licenses.update({ user_id: IsNull(), user_email: email }, { user_id: userId });
  }

  /** A user's licenses, newest first. */
  pageForUser(userId: number, page: number, limit: number): Promise<LicensePage> {
    const qb = this.licenses.createQueryBuilder('l').where('l.user_id = :userId', { userId });
    return readPage(qb, { page, limit }, { by: 'l.created_at', id: 'l.id' });
  }

  /** Every filter and sort has an index that serves it; status is as of `now` (see whereStatus). */
  async pageForAdmin(
    query: ListAdminLicensesQueryDto,
    now: Date,
    products: string[],
    totals: ListTotals,
    known?: number,
  ): Promise<LicensePage> {
    // Expired licenses the job has not stored yet are few (it runs every minute); when there are none, `expired`
    // is just the stored status, which (status, created_at) serves in order.
    const pastDue = query.status === 'expired' && (await this.licenses.existsBy({ status: 'active', expires_at: LessThanOrEqual(now) }));
    const filtered = async (forCount: boolean) => {
      const qb = this.licenses.createQueryBuilder('l');
      await this.whereAdminSearch(qb, query.search, products);
      if (query.status === 'expired' && !pastDue) qb.andWhere("l.status = 'expired'");
      else if (query.status) whereStatus(qb, query.status, now, forCount);
      if (query.is_trial !== undefined) qb.andWhere('l.is_trial = :trial', { trial: query.is_trial });
      return qb;
    };
    const qb = await filtered(false);
    const key = JSON.stringify([query.search?.trim() ?? '', query.status ?? '', query.is_trial ?? '']);
    return readPageByIds(
      qb,
      query,
      { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'l.id', unique: query.sort === 'license_key', fixed: ['l.created_at'] },
      { cache: totals, key, count: query.status ? await filtered(true) : undefined, known },
      (ids) => EntityRows.of(this.licenses).byIds(ids),
    );
  }

  /** Key, e-mail and product matches each go through an index; no `LIKE '%…%'`, which reads every row. */
  private async whereAdminSearch(qb: SelectQueryBuilder<LicenseEntity>, search: string | undefined, products: string[]): Promise<void> {
    const term = search?.trim();
    if (!term) return;
    const engine = engineOf(qb);
    const parts: Array<[string, Record<string, string | string[]>]> = [startsWith(engine, 'l.user_email', 'email', term.toLowerCase())];
    keyPrefixes(term).forEach((key, i) => parts.push(startsWith(engine, 'l.license_key_compact', `key${i}`, key)));
    if (products.length) {
      // A product matches many licenses: alone, its condition reads (product_name, created_at) in order; with the
      // other parts in an OR, every match would be sorted. So the others join only when they match anything.
      const others = await Promise.all(
        parts.map(([where, params]) => this.licenses.createQueryBuilder('l').where(where, params).getExists()),
      );
      parts.splice(0, parts.length, ...parts.filter((_, i) => others[i]));
      parts.push(['l.product_name IN (:...products)', { products }]);
    }
    qb.andWhere(new Brackets((where) => parts.forEach(([condition, params]) => where.orWhere(condition, params))));
  }

  /** One statement per name with the previous bound: in a recursive CTE, MariaDB reads the whole index for each step. */
  async productNames(): Promise<string[]> {
    const names: string[] = [];
    for (let after: string | null = null; names.length < MAX_PRODUCT_NAMES;) {
      const [row]: Array<{ name: string | null }> = await this.licenses.query(
        after === null
          ? 'SELECT MIN(product_name) AS name FROM licenses'
          : 'SELECT MIN(product_name) AS name FROM licenses WHERE product_name > ?',
        after === null ? [] : [after],
      );
      if (row?.name == null) break;
      names.push((after = row.name));
    }
    return names;
  }

  /** Raw rows, not entities: a million entities would cost more to build than to write. */
  async exportReader(
    filter: { search?: string; status?: LicenseStatus },
    products: string[],
    now = new Date(),
  ): Promise<(afterId: number, size: number) => Promise<RawLicenseRow[]>> {
    const base = this.licenses.createQueryBuilder('l');
    await this.whereAdminSearch(base, filter.search, products);
    if (filter.status) whereStatus(base, filter.status, now);
    base.select([]);
    for (const column of LICENSE_EXPORT_SELECT) {
      if (column === 'status')
        base.addSelect(`CASE WHEN l.status = 'active' AND l.expires_at <= :now THEN 'expired' ELSE l.status END`, 'status');
      else base.addSelect(`l.${column}`, column);
    }
    base.setParameter('now', now).orderBy('l.id', 'ASC');
    return (afterId, size) => {
      const [sql, params] = base.clone().andWhere('l.id > :afterId', { afterId }).limit(size).getQueryAndParameters();
      return this.sql.bulk<RawLicenseRow>(sql, params as Param[]);
    };
  }

  /** Per status as of `now` (active ones past their expiry count as expired) and trial mark. */
  async countByStatus(now = new Date()): Promise<LicenseStatusCount[]> {
    const rows = await this.reads.rows<{
      status: LicenseStatus;
      is_trial: number | boolean | string;
      count: string | number;
      activations: string | number | null;
      seats: string | number | null;
    }>(
      this.licenses
        .createQueryBuilder('l')
        .select(`CASE WHEN l.status = 'active' AND l.expires_at <= :now THEN 'expired' ELSE l.status END`, 'status')
        .addSelect('l.is_trial', 'is_trial')
        .addSelect('COUNT(*)', 'count')
        .addSelect('SUM(l.current_activations)', 'activations')
        .addSelect('SUM(l.max_activations)', 'seats')
        .setParameters({ now })
        .groupBy('1')
        .addGroupBy('l.is_trial'),
    );
    return rows.map((row) => ({
      status: row.status,
      is_trial: Number(row.is_trial) === 1 || row.is_trial === true,
      count: Number(row.count),
      activations: Number(row.activations ?? 0),
      seats: Number(row.seats ?? 0),
    }));
  }

  countActiveExpiringBy(by: Date, now = new Date()): Promise<number> {
    return this.reads.count(
      this.licenses
        .createQueryBuilder('l')
        .where('l.status = :active AND l.expires_at > :now AND l.expires_at <= :by', { active: 'active', now, by }),
    );
  }

  /** Licenses issued per UTC day from `from` to `to`, trial and paid apart. */
  async issuedPerDay(from: Date, to: Date): Promise<Array<{ day: string; trial: number; paid: number }>> {
    const isMysql = ['mysql', 'mariadb'].includes(this.licenses.manager.connection.options.type);
    const day = isMysql ? "DATE_FORMAT(l.created_at, '%Y-%m-%d')" : 'substr(l.created_at, 1, 10)';
    const rows = await this.reads.rows<{ day: string; trial: string | number; paid: string | number }>(
      this.licenses
        .createQueryBuilder('l')
        .select(day, 'day')
        .addSelect('SUM(CASE WHEN l.is_trial = :yes THEN 1 ELSE 0 END)', 'trial')
        .addSelect('SUM(CASE WHEN l.is_trial = :yes THEN 0 ELSE 1 END)', 'paid')
        .where('l.created_at >= :from AND l.created_at <= :to', { from, to, yes: true })
        .groupBy(day)
        .orderBy(day),
    );
    return rows.map((row) => ({ day: row.day, trial: Number(row.trial), paid: Number(row.paid) }));
  }

  countActiveAt(at: Date): Promise<number> {
    return this.reads.count(
      this.licenses
        .createQueryBuilder('l')
        .where('l.created_at < :at AND l.expires_at > :at AND l.status <> :revoked', { at, revoked: 'revoked' }),
    );
  }

  pendingSync(limit: number): Promise<LicenseEntity[]> {
    return this.licenses.find({ where: { synced_at: IsNull() }, order: { id: 'ASC' }, take: limit });
  }

  /** Stamps the pending licenses that still hold exactly these fields as synced. */
  async markSyncedWhere(fields: FindOptionsWhere<LicenseEntity>, at: Date): Promise<void> {
    await this.licenses.update({ ...fields, synced_at: IsNull() }, { synced_at: at });
  }

  /** Licenses not confirmed by the license server: off the event loop on SQLite (a million after a switch). */
  countPendingSync(): Promise<number> {
    return this.reads.count(this.licenses.createQueryBuilder('l').where('l.synced_at IS NULL'));
  }

  /** A full sync's total: off the event loop on SQLite, where counting a million rows blocks it. */
  count(): Promise<number> {
    return this.reads.count(this.licenses.createQueryBuilder('l'));
  }

  async confirmAllPending(at: Date): Promise<number> {
    return (await this.licenses.update({ synced_at: IsNull() }, { synced_at: at })).affected ?? 0;
  }

  /** Updates a license unless it changed here and waits to be pushed. */
  async updateIfSynced(id: number, changes: Partial<LicenseEntity>): Promise<void> {
    await this.licenses.update({ id, synced_at: Not(IsNull()) }, changes);
  }

  listAfter(afterId: number, limit: number): Promise<LicenseEntity[]> {
    return this.licenses.find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }
}

/** An active license past its expiry is expired, whether or not the expiry job has stored that yet (reads never write it). */
export function whereStatus(qb: SelectQueryBuilder<LicenseEntity>, status: LicenseStatus, now: Date, forCount = false): void {
  // A count reads ranges of (status, expires_at): at most EXACT_TOTAL_CAP + 1 entries.
  if (forCount) {
    if (status === 'active') qb.andWhere('l.status = :status AND l.expires_at > :now', { status, now });
    else if (status === 'expired') qb.andWhere("(l.status = 'expired' OR (l.status = 'active' AND l.expires_at <= :now))", { now });
    else qb.andWhere('l.status = :status', { status });
    return;
  }
  // A page: COALESCE(x, x) is x, but no index range, so the planner reads (status, created_at) or created_at in order
  // and checks the rest on the way (most licenses of a status match), instead of sorting every match of a range.
  if (status === 'active') qb.andWhere('l.status = :status AND COALESCE(l.expires_at, l.expires_at) > :now', { status, now });
  else if (status === 'expired')
    qb.andWhere(
      "(COALESCE(l.status, l.status) = 'expired' OR (COALESCE(l.status, l.status) = 'active' AND COALESCE(l.expires_at, l.expires_at) <= :now))",
      { now },
    );
  else qb.andWhere('l.status = :status', { status });
}
