import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource, In, MoreThan, Repository } from 'typeorm';
import { isUniqueViolation } from '../../database/driver-errors';
import { wrapManager } from '../../database/transaction-manager';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { emitAwaited, VERSION_DELETING, VERSION_RENAMED } from '../../common/events';
import { KeptReads } from '../../common/kept-reads';
import { Page, sortColumn } from '../../common/pagination';
import { counterOf, readPageByIds, whereSearch } from '../../database/pages';
import { ListTotals } from '../../common/list-totals';
import { PreparedSql } from '../../database/prepared-sql';
import { SettingsService } from '../settings/settings.service';
import { FileStorage } from '../storage/file-storage';
import { fileNameProblem } from '../storage/file-names';
import type { StoredUpload } from '../storage/upload.interceptor';
import { ListVersionsQueryDto, VersionSortKey } from './dto/list-versions-query.dto';
import { UpdateVersionDto, UploadVersionDto, VersionFlag } from './dto/version-form.dto';
import { VersionEntity } from './version.entity';
import { EntityRows } from '../../database/entity-rows';

export type { VersionEntity } from './version.entity';

/** What a select or product choice needs of a version. */
export type VersionChoice = Pick<VersionEntity, 'id' | 'version' | 'release_date' | 'is_stable' | 'is_latest'>;

/** What portals exchange about a version when syncing with a license server (never the stored file or its key). */
const SYNCED_VERSION_FIELDS = [
  'version',
  'release_date',
  'changelog',
  'download_url',
  'file_name',
  'file_size',
  'file_hash',
  'secret_hash',
  'encryption_key',
  'min_system_requirements',
  'is_stable',
  'is_latest',
] as const;

export type SyncedVersion = Pick<VersionEntity, (typeof SYNCED_VERSION_FIELDS)[number]>;

export function toSyncedVersion(version: SyncedVersion): SyncedVersion {
  return Object.fromEntries(SYNCED_VERSION_FIELDS.map((field) => [field, version[field]])) as SyncedVersion;
}

/** What a version is, as both portals see it: SHA-256 (first 128 bits, base64url) over the fields they exchange. */
export function versionChecksum(version: SyncedVersion): string {
  const fields = SYNCED_VERSION_FIELDS.map((field) => version[field]);
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

export type VersionPage = Page<VersionEntity> & { overallTotal: number; lastSyncAt: Date | null };

const SORT_COLUMNS: Record<VersionSortKey, string> = {
  release_date: 'v.release_date',
  created_at: 'v.created_at',
  version: 'v.version',
};

export const LATEST_REQUIRED = 'A version must stay the latest: mark another version as latest instead.';

/** How long the client catalog is answered from memory (another instance's version writes show within it). */
const CATALOG_FRESH_MS = 5_000;
/** Catalog pages, and lists of numbers, kept at most. */
const CATALOG_KEPT = 64;

/**
 * Software versions. "Exactly one latest" holds at every moment: the flag only changes through single UPDATE
 * statements that set it on one row and clear it on all others at once, so no interleaving of requests (or
 * instances) can leave two latest versions, and deleting the latest hands the flag to the newest remaining one.
 */
@Injectable()
export class VersionsService {
  private readonly sql: PreparedSql;
  /**
   * The admin list's totals by search ('' for every version, which is also the catalog's): every write they see goes
   * through this service (catalogChanged clears them), so they are kept briefly (another instance's writes show
   * within 5 s) instead of counted on every page.
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);
  /**
   * The client catalog's pages and version numbers (every customer's dashboard and purchase dialog reads them; they
   * change when an admin or a sync writes a version): kept CATALOG_FRESH_MS, dropped after each write here.
   */
  private readonly catalogPages = new KeptReads<Page<VersionEntity>>(CATALOG_FRESH_MS, CATALOG_KEPT);
  private readonly catalogNumbers = new KeptReads<string[]>(CATALOG_FRESH_MS, CATALOG_KEPT);

  constructor(
    @InjectRepository(VersionEntity) private readonly versions: Repository<VersionEntity>,
    private readonly storage: FileStorage,
    private readonly settings: SettingsService,
    private readonly events: EventEmitter2,
    dataSource: DataSource,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** Uploaded version files kept in storage: how many, and their bytes. */
  async storageUsage(): Promise<{ files: number; bytes: number }> {
    const row = await this.versions
      .createQueryBuilder('v')
      .select('COUNT(*)', 'files')
      .addSelect('COALESCE(SUM(v.file_size), 0)', 'bytes')
      .where('v.storage_key IS NOT NULL')
      .getRawOne<{ files: string | number; bytes: string | number }>();
    return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async list(query: ListVersionsQueryDto): Promise<VersionPage> {
    const qb = this.versions.createQueryBuilder('v');
    whereSearch(qb, ['v.version', 'v.changelog', 'v.download_url'], query.search);
    const search = query.search?.trim() ?? '';
    const by = sortColumn(SORT_COLUMNS, query.sort, 'created_at');
    // Ids by the sort's index, then those rows: MariaDB would sort every whole row (changelogs included) for
    // `SELECT *` at a deep offset.
    const [found, overallTotal, sync] = await Promise.all([
      readPageByIds(
        qb,
        query,
        { by, id: 'v.id', unique: by === SORT_COLUMNS.version, fixed: [SORT_COLUMNS.created_at] },
        { cache: this.totals, key: search },
        (ids) => EntityRows.of(this.versions).byIds(ids),
      ),
      // Without a search the page's total is the overall one: no second count.
      search ? this.totals.total('', counterOf(this.versions.createQueryBuilder('v'))) : undefined,
      this.settings.shownSyncState(),
    ]);
    // The time of the last sync run, not of the most recently synced row: editing a version makes it pending,
    // it does not undo the sync.
    const lastSyncAt = sync.versions_synced_at ? new Date(sync.versions_synced_at) : null;
    return { ...found, overallTotal: overallTotal ?? found.total, lastSyncAt };
  }

  /**
   * One page of versions in the client catalog's order: latest first, then newest release, then id. The page's ids
   * come from the index in that order alone (MariaDB would sort every row for `SELECT *` at a deep offset), then
   * those rows.
   */
  clientPage(request: { page?: number; limit?: number }, defaultLimit: number): Promise<Page<VersionEntity>> {
    return this.catalogPages.get(`${request.page ?? 1} ${request.limit ?? defaultLimit}`, () =>
      readPageByIds(
        this.versions.createQueryBuilder('v'),
        { ...request, order: 'desc' },
        { by: ['v.is_latest', 'v.release_date'], id: 'v.id', defaultLimit },
        { cache: this.totals, key: '' },
        (ids) => EntityRows.of(this.versions).byIds(ids),
      ),
    );
  }

  /** Version numbers in the client catalog's order (latest first, newest release, id): all, or the first `limit`. */
  numbers(limit?: number): Promise<string[]> {
    return this.catalogNumbers.get(String(limit ?? 'all'), async () => {
      const qb = this.versions
        .createQueryBuilder('v')
        .select('v.version', 'version')
        .orderBy('v.is_latest', 'DESC')
        .addOrderBy('v.release_date', 'DESC')
        .addOrderBy('v.id', 'DESC');
      if (limit !== undefined) qb.limit(limit);
      return (await qb.getRawMany<{ version: string }>()).map((row) => row.version);
    });
  }

  /**
   * Whether a version with exactly this number exists: one seek on the unique index. Compared again here because
   * MariaDB's collation would also match another letter case.
   */
  async hasNumber(number: string): Promise<boolean> {
    const row = await this.versions.findOne({ select: { version: true }, where: { version: number } });
    return row?.version === number;
  }

  /** Every version as a choice (no changelog or keys), latest first, then by release date: selects and license products. */
  all(): Promise<VersionChoice[]> {
    return this.versions.find({
      select: { id: true, version: true, release_date: true, is_stable: true, is_latest: true },
      order: { is_latest: 'DESC', release_date: 'DESC', id: 'DESC' },
    });
  }

  findByIds(ids: number[]): Promise<VersionEntity[]> {
    return ids.length ? this.versions.findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  async get(id: number): Promise<VersionEntity> {
    const version = await this.versions.findOneBy({ id });
    if (!version) throw ApiError.notFound('Version not found');
    return version;
  }

  /** Upload Version: the row, its optional file (committed from temporary storage), and the latest flag. */
  async create(dto: UploadVersionDto, upload: StoredUpload | undefined, actor: AuthUser): Promise<VersionEntity> {
    try {
      if (await this.versions.existsBy({ version: dto.version })) throw duplicateVersion(dto.version);
      let storageKey: string | null = null;
      if (upload) {
        const problem = fileNameProblem(upload.originalname);
        if (problem) throw ApiError.badRequest(problem, { file: [problem] });
        if (upload.size === 0) throw ApiError.badRequest('Please select a file.', { file: ['Please select a file.'] });
        storageKey = `versions/${randomUUID()}${upload.extension}`;
        await this.storage.commit(upload, storageKey);
      }
      let id: number;
      try {
        const inserted = await this.versions.insert({
          version: dto.version,
          release_date: dto.release_date,
          changelog: dto.changelog ?? null,
          download_url: dto.download_url ?? null,
          file_name: upload ? upload.originalname : null,
          storage_key: storageKey,
          file_size: upload ? upload.size : null,
          file_hash: upload ? upload.sha256 : null,
          secret_hash: dto.secret_hash ?? null,
          encryption_key: dto.encryption_key ?? null,
          min_system_requirements: dto.min_system_requirements ?? null,
          is_stable: dto.is_stable ?? true,
          is_latest: false,
          license_server_sync: dto.sync_to_license_server ?? true,
          created_by: actor.id,
        });
        id = inserted.identifiers[0].id as number;
      } catch (error) {
        if (storageKey) await this.storage.remove(storageKey);
        if (isUniqueViolation(error)) throw duplicateVersion(dto.version);
        throw error;
      }
      if (dto.is_latest) await this.makeLatest(id);
      else await this.ensureLatest();
      return this.get(id);
    } finally {
      this.catalogChanged();
    }
  }

  async update(id: number, dto: UpdateVersionDto): Promise<VersionEntity> {
    try {
      const version = await this.get(id);
      if (dto.version !== undefined && dto.version !== version.version && (await this.versions.existsBy({ version: dto.version })))
        throw duplicateVersion(dto.version);
      if (dto.is_latest === false && version.is_latest) throw ApiError.conflict(LATEST_REQUIRED, { is_latest: [LATEST_REQUIRED] });

      const changes: Partial<VersionEntity> = {};
      const assign = <K extends keyof VersionEntity>(key: K, value: VersionEntity[K] | undefined) => {
        if (value !== undefined && value !== version[key]) changes[key] = value;
      };
      assign('version', dto.version);
      assign('release_date', dto.release_date);
      assign('changelog', dto.changelog);
      assign('download_url', dto.download_url);
      assign('secret_hash', dto.secret_hash);
      assign('encryption_key', dto.encryption_key);
      assign('min_system_requirements', dto.min_system_requirements);
      assign('is_stable', dto.is_stable);
      assign('license_server_sync', dto.license_server_sync ?? dto.sync_to_license_server);
      const becomesLatest = dto.is_latest === true && !version.is_latest;
      // What the license server holds no longer matches: the version is pending until the next sync.
      if (Object.keys(changes).length || becomesLatest) changes.last_sync_at = null;
      if (Object.keys(changes).length) {
        try {
          const renamed = changes.version;
          if (renamed === undefined) await this.versions.update({ id }, changes);
          else {
            // Copies of the number change in the same transaction; what their owners do after it, once it is committed.
            const afterCommit = await this.versions.manager.transaction(async (manager) => {
              await manager.update(VersionEntity, { id }, changes);
              return emitAwaited(this.events, VERSION_RENAMED, { versionId: id, version: renamed, transaction: wrapManager(manager) });
            });
            for (const run of afterCommit) run();
          }
        } catch (error) {
          if (isUniqueViolation(error)) throw duplicateVersion(dto.version ?? version.version);
          throw error;
        }
      }
      if (becomesLatest) await this.makeLatest(id);
      return this.get(id);
    } finally {
      this.catalogChanged();
    }
  }

  /** Flips Stable/Beta or Latest/Older. Un-marking the latest version is refused (409): mark another one instead. */
  async toggle(id: number, flag: VersionFlag): Promise<VersionEntity> {
    const version = await this.get(id);
    return this.update(id, flag === 'is_latest' ? { is_latest: !version.is_latest } : { is_stable: !version.is_stable });
  }

  /** Deletes the version, its distribution files (rows and stored bytes) and its own file; the latest flag moves on. */
  async remove(id: number): Promise<void> {
    try {
      const version = await this.get(id);
      // What hangs on the version (distribution files and their bytes) goes first; a failure there keeps the version.
      await emitAwaited(this.events, VERSION_DELETING, { versionId: id });
      // The flag moves to the newest other version before this one goes, so there is never a moment without a latest.
      if (version.is_latest) await this.handOverLatest(id);
      const result = await this.versions.delete({ id });
      if (!result.affected) throw ApiError.notFound('Version not found');
      if (version.storage_key) await this.storage.remove(version.storage_key);
      await this.ensureLatest();
    } finally {
      this.catalogChanged();
    }
  }

  /** Versions to push to the license server: the given ones, or every version marked for syncing. */
  forSync(ids?: number[]): Promise<VersionEntity[]> {
    if (ids) return this.findByIds(ids);
    return this.versions.find({ where: { license_server_sync: true }, order: { id: 'ASC' } });
  }

  /** Versions marked for syncing after `afterId`, by id, `limit` at a time (a full sync). */
  forSyncAfter(afterId: number, limit: number): Promise<VersionEntity[]> {
    return this.versions.find({ where: { license_server_sync: true, id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }

  countForSync(): Promise<number> {
    return this.versions.countBy({ license_server_sync: true });
  }

  /** The versions with these numbers. */
  forNumbers(numbers: string[]): Promise<VersionEntity[]> {
    return numbers.length ? this.versions.findBy({ version: In(numbers) }) : Promise.resolve([]);
  }

  /**
   * Number and checksum of each version after `afterId`, by id: what a reconcile compares. The portal that syncs
   * compares the versions it pushes (`onlyMarked`); a license server, every version it holds.
   */
  async checksumsAfter(afterId: number, limit: number, onlyMarked: boolean): Promise<Array<{ id: number; key: string; checksum: string }>> {
    const rows = await this.versions.find({
      where: { id: MoreThan(afterId), ...(onlyMarked ? { license_server_sync: true } : {}) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((version) => ({ id: version.id, key: version.version, checksum: versionChecksum(version) }));
  }

  /** Records a successful push to the license server (for the sync client). */
  async markSynced(ids: number[], at = new Date()): Promise<void> {
    if (ids.length) await this.versions.update({ id: In(ids) }, { last_sync_at: at, license_server_sync: true });
  }

  /**
   * Versions pushed by a portal that uses this one as its license server: matched by version number, created
   * (without a stored file here) or updated; a pushed latest version becomes the latest. Counts new and changed ones.
   */
  async upsertFromPortal(items: SyncedVersion[]): Promise<{ created: number; updated: number }> {
    try {
      const now = new Date();
      const existing = new Map((await this.versions.findBy({ version: In(items.map((item) => item.version)) })).map((v) => [v.version, v]));
      let created = 0;
      let updated = 0;
      let latestId: number | null = null;
      for (const { is_latest, ...fields } of items) {
        const found = existing.get(fields.version);
        let id: number;
        if (!found) {
          const inserted = await this.versions.insert({ ...fields, is_latest: false, license_server_sync: true, last_sync_at: now });
          id = inserted.identifiers[0].id as number;
          created++;
        } else {
          id = found.id;
          const changed = (Object.keys(fields) as Array<keyof typeof fields>).some((key) => fields[key] !== found[key]);
          if (changed || is_latest !== found.is_latest) updated++;
          await this.versions.update({ id }, { ...fields, license_server_sync: true, last_sync_at: now });
        }
        if (is_latest) latestId = id;
      }
      if (latestId !== null) await this.makeLatest(latestId);
      await this.ensureLatest();
      return { created, updated };
    } finally {
      this.catalogChanged();
    }
  }

  /** A version was written (or a write failed part way): the catalog is read anew. */
  private catalogChanged(): void {
    this.catalogPages.clear();
    this.catalogNumbers.clear();
    this.totals.clear();
  }

  /** One statement: this row becomes the latest and every other row stops being it. */
  private async makeLatest(id: number): Promise<void> {
    await this.sql.run(
      `UPDATE ${this.sql.quote('versions')} SET ${this.sql.quote('is_latest')} = CASE WHEN id = ? THEN 1 ELSE 0 END ` +
        `WHERE ${this.sql.quote('is_latest')} = 1 OR id = ?`,
      [id, id],
    );
  }

  /** One statement: the newest release other than `id` becomes the latest (if there is one), and `id` stops being it. */
  private async handOverLatest(id: number): Promise<void> {
    const versions = this.sql.quote('versions');
    await this.sql.run(
      `UPDATE ${versions} SET ${this.sql.quote('is_latest')} = CASE WHEN id = ? THEN 0 ELSE 1 END WHERE id = ? OR id = ` +
        `(SELECT id FROM (SELECT id FROM ${versions} WHERE id <> ? ORDER BY release_date DESC, id DESC LIMIT 1) newest)`,
      [id, id, id],
    );
  }

  /** One statement: when no version is the latest, the newest release becomes it. */
  private async ensureLatest(): Promise<void> {
    const latest = this.sql.quote('is_latest');
    await this.sql.run(
      `UPDATE ${this.sql.quote('versions')} SET ${latest} = 1 WHERE id = ` +
        `(SELECT id FROM (SELECT id FROM ${this.sql.quote('versions')} ORDER BY release_date DESC, id DESC LIMIT 1) newest) ` +
        `AND NOT EXISTS (SELECT 1 FROM (SELECT id FROM ${this.sql.quote('versions')} WHERE ${latest} = 1) current_latest)`,
      [],
    );
  }
}

function duplicateVersion(version: string): ApiError {
  const message = `Version ${version} already exists`;
  return ApiError.conflict(message, { version: [message] });
}
