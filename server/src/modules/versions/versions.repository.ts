import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThan, Repository } from 'typeorm';
import type { ListTotals } from '../../common/list-totals';
import { Page, PageRequest } from '../../common/pagination';
import { isUniqueViolation } from '../../database/driver-errors';
import { counterOf, readPageByIds, sortColumn, whereSearch } from '../../database/pages';
import { PreparedSql } from '../../database/prepared-sql';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import { ListVersionsQueryDto, VersionSortKey } from './dto/list-versions-query.dto';
import { VersionEntity } from './version.entity';
import { EntityRows } from '../../database/entity-rows';

/**
 * The versions table as another module's hot-path statement joins it (the download lookup, one round trip), so
 * the versions columns stay named here: alias `v`, and the version number read as `version`.
 */
export const JOINABLE_VERSIONS = {
  table: 'versions v',
  id: 'v.id',
  numberColumn: 'v.version',
  stateColumn: 'v.state',
  channelColumn: 'v.channel',
} as const;

/** What the update advice needs of a published release. */
export type PublishedRelease = Pick<VersionEntity, 'id' | 'version' | 'channel' | 'published_at' | 'rollout_percent' | 'rollout_paused'>;

/** What a select or product choice needs of a version. */
export type VersionChoice = Pick<VersionEntity, 'id' | 'version' | 'release_date' | 'is_stable' | 'is_latest'>;

/** A new version's columns; its rollout starts finished (every server) unless given. */
export type NewVersionRow = Omit<VersionEntity, 'id' | 'last_sync_at' | 'created_at' | 'updated_at' | 'rollout_percent' | 'rollout_paused'> &
  Partial<Pick<VersionEntity, 'rollout_percent' | 'rollout_paused'>>;

const SORT_COLUMNS: Record<VersionSortKey, string> = {
  release_date: 'v.release_date',
  created_at: 'v.created_at',
  version: 'v.version_order',
};

/**
 * The versions table. "Exactly one latest" holds at every moment: the flag only changes through single UPDATE
 * statements (makeLatest, handOverLatest, ensureLatest) that set it on one row and clear it on all others at once,
 * so no interleaving of requests (or instances) can leave two latest versions.
 */
@Injectable()
export class VersionsRepository {
  private readonly sql: PreparedSql;

  constructor(@InjectRepository(VersionEntity) private readonly versions: Repository<VersionEntity>) {
    this.sql = PreparedSql.for(versions.manager.connection);
  }

  /** Uploaded version files in storage: how many, and their bytes. */
  async storageUsage(): Promise<{ files: number; bytes: number }> {
    const row = await this.versions
      .createQueryBuilder('v')
      .select('COUNT(*)', 'files')
      .addSelect('COALESCE(SUM(v.file_size), 0)', 'bytes')
      .where('v.storage_key IS NOT NULL')
      .getRawOne<{ files: string | number; bytes: string | number }>();
    return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * A page of the admin list. Ids by the sort's index, then those rows: MariaDB would sort every whole row
   * (changelogs included) for `SELECT *` at a deep offset. Totals by search ('' for every version) in `totals`.
   */
  page(query: ListVersionsQueryDto, totals: ListTotals): Promise<Page<VersionEntity>> {
    const qb = this.versions.createQueryBuilder('v');
    whereSearch(qb, ['v.version', 'v.changelog', 'v.download_url'], query.search);
    if (query.channel) qb.andWhere('v.channel = :channel', { channel: query.channel });
    if (query.state) qb.andWhere('v.state = :state', { state: query.state });
    const by = sortColumn(SORT_COLUMNS, query.sort, 'created_at');
    return readPageByIds(
      qb,
      query,
      { by, id: 'v.id', fixed: [SORT_COLUMNS.created_at] },
      { cache: totals, key: `${query.channel ?? ''}|${query.state ?? ''}|${query.search?.trim() ?? ''}` },
      (ids) => EntityRows.of(this.versions).byIds(ids),
    );
  }

  /** How many versions there are, whatever the search and filters (list '||' of `totals`). */
  total(totals: ListTotals): Promise<number> {
    return totals.total('||', counterOf(this.versions.createQueryBuilder('v')));
  }

  /** One page of the client catalog (published versions, newest semantic version first, then id): ids first, as `page`. */
  catalogPage(request: PageRequest, defaultLimit: number, totals: ListTotals): Promise<Page<VersionEntity>> {
    return readPageByIds(
      this.versions.createQueryBuilder('v').where("v.state = 'published'"),
      { ...request, order: 'desc' },
      { by: 'v.version_order', id: 'v.id', defaultLimit },
      { cache: totals, key: '' },
      (ids) => EntityRows.of(this.versions).byIds(ids),
    );
  }

  /** Every published release, newest semantic version first (they are a few hundred at most). */
  publishedReleases(): Promise<PublishedRelease[]> {
    return this.versions.find({
      select: { id: true, version: true, channel: true, published_at: true, rollout_percent: true, rollout_paused: true },
      where: { state: 'published' },
      order: { version_order: 'DESC', id: 'DESC' },
    });
  }

  async numbers(limit?: number): Promise<string[]> {
    const qb = this.versions
      .createQueryBuilder('v')
      .select('v.version', 'version')
      .where("v.state = 'published'")
      .orderBy('v.version_order', 'DESC')
      .addOrderBy('v.id', 'DESC');
    if (limit !== undefined) qb.limit(limit);
    return (await qb.getRawMany<{ version: string }>()).map((row) => row.version);
  }

  /**
   * Whether a version with exactly this number exists: one seek on the unique index. Compared again here because
   * MariaDB's collation would also match another letter case.
   */
  async hasNumber(number: string): Promise<boolean> {
    const row = await this.versions.findOne({ select: { version: true }, where: { version: number } });
    return row?.version === number;
  }

  /** Whether a version has this number, as the unique index compares numbers. */
  existsNumber(number: string): Promise<boolean> {
    return this.versions.existsBy({ version: number });
  }

  choices(): Promise<VersionChoice[]> {
    return this.versions.find({
      select: { id: true, version: true, release_date: true, is_stable: true, is_latest: true },
      order: { is_latest: 'DESC', release_date: 'DESC', id: 'DESC' },
    });
  }

  findById(id: number): Promise<VersionEntity | null> {
    return this.versions.findOneBy({ id });
  }

  findByIds(ids: number[]): Promise<VersionEntity[]> {
    return ids.length ? this.versions.findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  findByNumbers(numbers: string[]): Promise<VersionEntity[]> {
    return numbers.length ? this.versions.findBy({ version: In(numbers) }) : Promise.resolve([]);
  }

  /** The new row's id, or null when its number is taken. */
  async insert(row: NewVersionRow): Promise<number | null> {
    try {
      const inserted = await this.versions.insert(row);
      return inserted.identifiers[0].id as number;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** False when the change would give it a number another version has. In `transaction` when given. */
  async update(id: number, changes: Partial<VersionEntity>, transaction?: Transaction): Promise<boolean> {
    try {
      if (transaction) await managerOf(transaction).update(VersionEntity, { id }, changes);
      else await this.versions.update({ id }, changes);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.versions.delete({ id });
    return !!result.affected;
  }

  /** One statement: this row becomes the latest and every other row stops being it. */
  async makeLatest(id: number): Promise<void> {
    await this.sql.run(
      `UPDATE ${this.sql.quote('versions')} SET ${this.sql.quote('is_latest')} = CASE WHEN id = ? THEN 1 ELSE 0 END ` +
        `WHERE ${this.sql.quote('is_latest')} = 1 OR id = ?`,
      [id, id],
    );
  }

  /**
   * One statement: the newest published release other than `id` becomes the latest (if there is one), and `id` stops
   * being it. Drafts and yanked versions are never the latest: customers could not see or download it.
   */
  async handOverLatest(id: number): Promise<void> {
    const versions = this.sql.quote('versions');
    await this.sql.run(
      `UPDATE ${versions} SET ${this.sql.quote('is_latest')} = CASE WHEN id = ? THEN 0 ELSE 1 END WHERE id = ? OR id = ` +
        `(SELECT id FROM (SELECT id FROM ${versions} WHERE id <> ? AND state = 'published' ORDER BY release_date DESC, id DESC LIMIT 1) newest)`,
      [id, id, id],
    );
  }

  /** One statement: when no version is the latest, the newest published release becomes it. */
  async ensureLatest(): Promise<void> {
    const latest = this.sql.quote('is_latest');
    await this.sql.run(
      `UPDATE ${this.sql.quote('versions')} SET ${latest} = 1 WHERE id = ` +
        `(SELECT id FROM (SELECT id FROM ${this.sql.quote('versions')} WHERE state = 'published' ORDER BY release_date DESC, id DESC LIMIT 1) newest) ` +
        `AND NOT EXISTS (SELECT 1 FROM (SELECT id FROM ${this.sql.quote('versions')} WHERE ${latest} = 1) current_latest)`,
      [],
    );
  }

  // ---- the license-server sync ----------------------------------------------------------------

  markedForSync(): Promise<VersionEntity[]> {
    return this.versions.find({ where: { license_server_sync: true }, order: { id: 'ASC' } });
  }

  countMarkedForSync(): Promise<number> {
    return this.versions.countBy({ license_server_sync: true });
  }

  /** Versions after `afterId`, by id, `limit` at a time: all of them, or those marked for syncing. */
  after(afterId: number, limit: number, onlyMarked: boolean): Promise<VersionEntity[]> {
    return this.versions.find({
      where: { id: MoreThan(afterId), ...(onlyMarked ? { license_server_sync: true } : {}) },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** Records a push to the license server: synced at `at`, and marked for syncing. */
  async markSynced(ids: number[], at: Date): Promise<void> {
    if (ids.length) await this.versions.update({ id: In(ids) }, { last_sync_at: at, license_server_sync: true });
  }

  /** A version as a portal pushed it (not the latest yet, marked synced at `at`); its id. */
  async insertSynced(fields: Partial<VersionEntity>, at: Date): Promise<number> {
    const inserted = await this.versions.insert({ ...fields, is_latest: false, license_server_sync: true, last_sync_at: at });
    return inserted.identifiers[0].id as number;
  }

  /** A version's fields as a portal pushed them, marked synced at `at`. */
  async updateSynced(id: number, fields: Partial<VersionEntity>, at: Date): Promise<void> {
    await this.versions.update({ id }, { ...fields, license_server_sync: true, last_sync_at: at });
  }
}
