import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, In, IsNull, LessThanOrEqual, MoreThan, Not, Repository } from 'typeorm';
import { likePattern, Page, readPage, sortColumn, whereSearch } from '../../common/pagination';
import { PreparedSql } from '../../database/prepared-sql';
import { LICENSE_EXPORT_SELECT, RawLicenseRow } from './license-export';
import { AdminLicenseSortKey, ListAdminLicensesQueryDto } from './dto/admin-license.dto';
import { LicenseEntity, LicenseStatus } from './license.entity';

export type LicensePage = Page<LicenseEntity>;

/** A row of the status/trial breakdown behind the license stats. */
export interface LicenseStatusCount {
  status: LicenseStatus;
  is_trial: boolean;
  count: number;
  activations: number;
  seats: number;
}

export type NewLicenseRow = Omit<LicenseEntity, 'id' | 'user' | 'created_at' | 'updated_at'>;

const SEARCHED_COLUMNS = ['l.license_key', 'l.user_email', 'l.product_name'];
const SORT_COLUMNS: Record<AdminLicenseSortKey, string> = {
  license_key: 'l.license_key',
  expires_at: 'l.expires_at',
  created_at: 'l.created_at',
};

/**
 * The licenses table as another module's hot-path statement joins it, so that statement stays one round trip
 * while the licenses columns stay named here: alias `l`, the columns the activation API reads (as `l_<column>`),
 * and readJoinedLicense to turn them back into a license.
 */
export const JOINABLE_LICENSES = {
  table: 'licenses l',
  id: 'l.id',
  key: 'l.license_key',
  columns:
    'l.id AS l_id, l.license_key AS l_license_key, l.product_name AS l_product_name, l.user_id AS l_user_id, ' +
    'l.user_email AS l_user_email, l.status AS l_status, l.is_trial AS l_is_trial, l.expires_at AS l_expires_at, ' +
    'l.max_activations AS l_max_activations, l.current_activations AS l_current_activations',
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
  });
}

/**
 * The one owner of the `licenses` table: every statement on it is here, so the rules (issuing, seats, admin,
 * sync) live in the services and the SQL (atomic seat counters, conditional updates) in one place.
 */
@Injectable()
export class LicensesRepository {
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(LicenseEntity) private readonly licenses: Repository<LicenseEntity>) {
    this.sql = PreparedSql.for(licenses.manager.connection);
  }

  // ---- lookups ---------------------------------------------------------------------------------

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

  /** A user's test licenses, or (with `upToId`) those of them issued no later than that one. */
  countTrials(userId: number, upToId?: number): Promise<number> {
    return this.licenses.countBy({ user_id: userId, is_trial: true, ...(upToId === undefined ? {} : { id: LessThanOrEqual(upToId) }) });
  }

  // ---- writes ----------------------------------------------------------------------------------

  /** Inserts a license; returns its id. */
  async insert(row: NewLicenseRow | Omit<NewLicenseRow, 'order_id'>): Promise<number> {
    const result = await this.licenses.insert(row);
    return result.identifiers[0].id as number;
  }

  /** Updates one license, optionally only while it still matches `where` (e.g. still pending sync). */
  async update(id: number, changes: Partial<LicenseEntity>, where: FindOptionsWhere<LicenseEntity> = {}): Promise<void> {
    await this.licenses.update({ ...where, id }, changes);
  }

  async delete(id: number): Promise<void> {
    await this.licenses.delete({ id });
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

  /** Gives back `count` seats (a positive integer) in one statement, never below zero. */
  async releaseSeats(licenseId: number, count: number): Promise<void> {
    await this.licenses
      .createQueryBuilder()
      .update()
      .set({ current_activations: () => `CASE WHEN current_activations > ${count} THEN current_activations - ${count} ELSE 0 END` })
      .where('id = :id', { id: licenseId })
      .execute();
  }

  /** Active licenses past their expiry become expired; returns how many. */
  async expireDue(now: Date): Promise<number> {
    const result = await this.licenses
      .createQueryBuilder()
      .update()
      .set({ status: 'expired' })
      .where('status = :active AND expires_at <= :now', { active: 'active', now })
      .execute();
    return result.affected ?? 0;
  }

  /** One license found past its expiry is expired, unless something else changed its status meanwhile. */
  async markExpired(id: number): Promise<void> {
    await this.licenses.update({ id, status: 'active' }, { status: 'expired' });
  }

  /** Links the licenses issued to this e-mail address before the account existed to the account. */
  async claimByEmail(userId: number, email: string): Promise<void> {
    await this.licenses
      .createQueryBuilder()
      .update()
      .set({ user_id: userId })
      .where('user_id IS NULL AND user_email = :email', { email })
      .execute();
  }

  // ---- lists and figures -----------------------------------------------------------------------

  /** A user's licenses, newest first. */
  pageForUser(userId: number, page: number, limit: number): Promise<LicensePage> {
    const qb = this.licenses.createQueryBuilder('l').where('l.user_id = :userId', { userId });
    return readPage(qb, { page, limit }, { by: 'l.created_at', id: 'l.id' });
  }

  /** The admin list: searched, filtered, sorted (created_at by default), paged. */
  pageForAdmin(query: ListAdminLicensesQueryDto): Promise<LicensePage> {
    const qb = this.licenses.createQueryBuilder('l');
    whereSearch(qb, SEARCHED_COLUMNS, query.search);
    if (query.status) qb.andWhere('l.status = :status', { status: query.status });
    if (query.is_trial !== undefined) qb.andWhere('l.is_trial = :trial', { trial: query.is_trial });
    return readPage(qb, query, { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'l.id' });
  }

  /**
   * Up to `size` licenses after `afterId` that match the filters, in id order, as raw rows of the export's columns
   * (for streamed exports: a million entities would cost more to build than to write).
   */
  exportBatch(filter: { search?: string; status?: LicenseStatus }, afterId: number, size: number): Promise<RawLicenseRow[]> {
    const conditions = ['id > ?'];
    const params: Array<string | number> = [afterId];
    const term = filter.search?.trim();
    if (term) {
      conditions.push(`(${SEARCHED_COLUMNS.map((column) => `${column.slice(2)} LIKE ? ESCAPE '!'`).join(' OR ')})`);
      params.push(...SEARCHED_COLUMNS.map(() => likePattern(term)));
    }
    if (filter.status) {
      conditions.push('status = ?');
      params.push(filter.status);
    }
    return this.sql.all<RawLicenseRow>(
      `SELECT ${LICENSE_EXPORT_SELECT.join(', ')} FROM licenses WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT ${Number(size)}`,
      params,
    );
  }

  /** How many licenses there are per status and trial mark, with their seats in use and (all) seats. */
  async countByStatus(): Promise<LicenseStatusCount[]> {
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
    return rows.map((row) => ({
      status: row.status,
      is_trial: Number(row.is_trial) === 1 || row.is_trial === true,
      count: Number(row.count),
      activations: Number(row.activations ?? 0),
      seats: Number(row.seats ?? 0),
    }));
  }

  /** Active licenses that expire no later than `by`. */
  countActiveExpiringBy(by: Date): Promise<number> {
    return this.licenses.countBy({ status: 'active', expires_at: LessThanOrEqual(by) });
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
  countActiveAt(at: Date): Promise<number> {
    return this.licenses
      .createQueryBuilder('l')
      .where('l.created_at < :at AND l.expires_at > :at AND l.status <> :revoked', { at, revoked: 'revoked' })
      .getCount();
  }

  // ---- sync ------------------------------------------------------------------------------------

  /** Licenses not confirmed by the license server yet, oldest first. */
  pendingSync(limit: number): Promise<LicenseEntity[]> {
    return this.licenses.find({ where: { synced_at: IsNull() }, order: { id: 'ASC' }, take: limit });
  }

  /** Stamps the pending licenses that still hold exactly these fields as synced. */
  async markSyncedWhere(fields: FindOptionsWhere<LicenseEntity>, at: Date): Promise<void> {
    await this.licenses.update({ ...fields, synced_at: IsNull() }, { synced_at: at });
  }

  countPendingSync(): Promise<number> {
    return this.licenses.countBy({ synced_at: IsNull() });
  }

  count(): Promise<number> {
    return this.licenses.count();
  }

  async confirmAllPending(at: Date): Promise<number> {
    return (await this.licenses.update({ synced_at: IsNull() }, { synced_at: at })).affected ?? 0;
  }

  /** Updates a license unless it changed here and waits to be pushed. */
  async updateIfSynced(id: number, changes: Partial<LicenseEntity>): Promise<void> {
    await this.licenses.update({ id, synced_at: Not(IsNull()) }, changes);
  }

  /** Licenses after `afterId`, by id. */
  listAfter(afterId: number, limit: number): Promise<LicenseEntity[]> {
    return this.licenses.find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }
}
