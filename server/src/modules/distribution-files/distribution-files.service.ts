import { BeforeApplicationShutdown, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In, Repository } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/driver-errors';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import {
  OnAwaitedEvent,
  VERSION_DELETING,
  VERSION_RENAMED,
  type VersionDeletingEvent,
  type VersionRenamedEvent,
} from '../../common/events';
import { KeptReads } from '../../common/kept-reads';
import { Page, sortColumn } from '../../common/pagination';
import { likePattern, readPageByIds } from '../../database/pages';
import { ListTotals } from '../../common/list-totals';
import { Cache } from '../../common/cache';
import { OffLoopReads } from '../../database/off-loop-reads';
import { IntervalBatch } from '../../database/interval-batch';
import { managerOf } from '../../database/transaction-manager';
import { PreparedSql } from '../../database/prepared-sql';
import { FileStorage } from '../storage/file-storage';
import { DISTRIBUTION_EXTENSIONS, extensionOf, fileNameProblem, fileTypeNotAllowed, PLEASE_SELECT_A_FILE } from '../storage/file-names';
import type { StoredUpload } from '../storage/upload.interceptor';
import type { VersionEntity } from '../versions/versions.service';
import { JOINABLE_VERSIONS as V } from '../versions/versions.repository';
import { VersionsService } from '../versions/versions.service';
import { DistributionFileEntity, OS_TYPES, OsType } from './distribution-file.entity';
import { FileSortKey, ListDistributionFilesQueryDto, UploadDistributionFileDto } from './dto/distribution-file-form.dto';
import { FileStatsDto } from './dto/distribution-file.dto';
import { EntityRows } from '../../database/entity-rows';

export type FileWithVersion = DistributionFileEntity & { version: VersionEntity };

export type FilePage = Page<FileWithVersion>;

/** What a download needs, read in one statement. */
export interface DownloadableFile {
  id: number;
  file_name: string;
  storage_key: string;
  file_size: number;
  file_hash: string;
  os_type: OsType;
  architecture: string;
  version_id: number;
  version: string;
}

const SORT_COLUMNS: Record<FileSortKey, string> = {
  created_at: 'f.created_at',
  file_name: 'f.file_name',
  file_size: 'f.file_size',
  download_count: 'f.download_count',
  os_type: 'f.os_type',
  version: 'f.version_number',
};

const DOWNLOADABLE_SQL =
  'SELECT f.id, f.file_name, f.storage_key, f.file_size, f.file_hash, f.os_type, f.architecture, ' +
  `f.version_id, ${V.numberColumn} FROM distribution_files f INNER JOIN ${V.table} ON ${V.id} = f.version_id WHERE f.id = ?`;

/** A search matching at most this many files passes their ids to the page and its count (see list). */
const SEARCH_IDS = 1000;
/** How long a search's matching ids are reused (this instance's writes drop them; another's show within it). */
const SEARCH_IDS_FRESH_MS = 5_000;
/** Searches whose ids are kept at most (the oldest go first). */
const SEARCH_IDS_KEPT = 64;

/** How long the client catalog's files of a page of versions are reused (this instance's writes and counts drop them). */
const CATALOG_FILES_FRESH_MS = 5_000;
const CATALOG_FILES_KEPT = 64;

/** How long a file's download row is reused without asking the database (a deletion here drops it at once). */
const DOWNLOADABLE_TTL_MS = 5_000;
const DOWNLOADABLE_KEPT = 1_000;

/** Distribution files per version, OS and architecture: upload (validated, hashed, stored atomically), list, stats, delete, download counts. */
@Injectable()
export class DistributionFilesService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('DistributionFiles');
  private readonly sql: PreparedSql;
  /**
   * The admin list's totals (bounded, see ListTotals); dropped when a file is added or removed here or its version is
   * renamed or deleted (every write its filters and search see), so exact ones are kept briefly too (another
   * instance's writes show within 5 s) instead of counted on every page of a filter.
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);
  /**
   * Recent searches' matching ids (see list): finding them reads every file name (LIKE '%…%' over 20,000 names costs
   * 5-20 ms on MariaDB), so paging through a search, or the list asked again after an action, reads them once.
   */
  private readonly searchIds = new KeptReads<number[] | null>(SEARCH_IDS_FRESH_MS, SEARCH_IDS_KEPT);
  /** The stats (an aggregate of every file), kept until a file is added, removed or downloaded (see `changed`). */
  private readonly figures = new Cache<FileStatsDto>({ max: 16, ttlMs: 60_000, staleWhileRevalidate: true });
  /** The files of a page of the client catalog (every customer's dashboard reads them), by their versions' ids. */
  private readonly catalogFiles = new KeptReads<DistributionFileEntity[]>(CATALOG_FILES_FRESH_MS, CATALOG_FILES_KEPT);
  /**
   * Download counts, added up per file in memory and written once a second (`count = count + n` in SQL, so
   * instances never overwrite each other). Every read of counts here flushes first, so this instance always
   * shows what it served; shutdown flushes after the last download ended.
   */
  private readonly counter = new IntervalBatch<number>(
    (ids) => {
      const perFile = new Map<number, number>();
      for (const id of ids) perFile.set(id, (perFile.get(id) ?? 0) + 1);
      return this.sql
        .runEach(
          'UPDATE distribution_files SET download_count = download_count + ? WHERE id = ?',
          [...perFile].map(([id, count]) => [count, id]),
        )
        .finally(() => {
          this.figures.clear();
          this.catalogFiles.clear();
        });
    },
    1000,
    (error) => this.logger.error(`Download counts not stored yet (kept for the next try): ${(error as Error).message}`),
  );
  /**
   * The download hot path's row by id: a file's bytes, name and hash never change while it exists (a new upload
   * is a new row), so the row is kept briefly instead of read per request (an edited version number reaches the
   * download log within DOWNLOADABLE_TTL_MS).
   */
  private readonly downloadable = new Map<number, { row: DownloadableFile; at: number }>();

  constructor(
    @InjectRepository(DistributionFileEntity) private readonly files: Repository<DistributionFileEntity>,
    private readonly versions: VersionsService,
    private readonly storage: FileStorage,
    dataSource: DataSource,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  async list(query: ListDistributionFilesQueryDto): Promise<FilePage> {
    await this.counter.flush();
    const term = query.search?.trim();
    const qb = this.files.createQueryBuilder('f');
    if (query.version_id !== undefined) qb.andWhere('f.version_id = :versionId', { versionId: query.version_id });
    if (query.os_type) qb.andWhere('f.os_type = :os', { os: query.os_type });
    if (query.architecture) qb.andWhere('f.architecture = :arch', { arch: query.architecture });
    // The search reads names from the (version_id, file_name) index, covering (id included), and the matching
    // versions once from theirs, instead of every file row in the list's order (or a version lookup per file): once,
    // for the ids of its matches, which the page and its count then share; a term matching more than SEARCH_IDS
    // files is read as a subquery by both.
    if (term) {
      const matching = (search: string) =>
        `SELECT s.id FROM distribution_files s WHERE s.file_name LIKE ${search} ESCAPE '!' ` +
        `OR s.version_id IN (SELECT ${V.id} FROM ${V.table} WHERE ${V.numberColumn} LIKE ${search} ESCAPE '!')`;
      const pattern = likePattern(term);
      const ids = await this.matchingIds(term, () => this.files.query(`${matching('?')} LIMIT ${SEARCH_IDS + 1}`, [pattern, pattern]));
      if (ids) qb.andWhere(ids.length ? 'f.id IN (:...matched)' : '1 = 0', { matched: ids });
      else qb.andWhere(`f.id IN (${matching(':search')})`, { search: pattern });
    }
    const key = JSON.stringify([term ?? '', query.version_id ?? '', query.os_type ?? '', query.architecture ?? '']);
    return (await readPageByIds(
      qb,
      query,
      { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'f.id', fixed: ['f.created_at'] },
      { cache: this.totals, key },
      (ids) => EntityRows.of(this.files).byIdsWith(ids, 'version'),
    )) as FilePage;
  }

  /** The ids of the files a search term matches, or null when more than SEARCH_IDS do; kept briefly (searchIds). */
  private matchingIds(term: string, find: () => Promise<Array<{ id: number | string }>>): Promise<number[] | null> {
    return this.searchIds.get(term, async () => {
      const found = (await find()).map((row) => Number(row.id));
      return found.length <= SEARCH_IDS ? found : null;
    });
  }

  async get(id: number): Promise<FileWithVersion> {
    await this.counter.flush();
    const file = await this.files.findOne({ where: { id }, relations: { version: true } });
    if (!file) throw ApiError.notFound(`File ${id} not found`);
    return file as FileWithVersion;
  }

  /** Files of these versions, by OS, architecture and name (shared: not to be changed). */
  async forVersions(versionIds: number[]): Promise<DistributionFileEntity[]> {
    if (!versionIds.length) return [];
    await this.counter.flush();
    return this.catalogFiles.get(versionIds.join(','), () =>
      this.files.find({ where: { version_id: In(versionIds) }, order: { os_type: 'ASC', architecture: 'ASC', file_name: 'ASC' } }),
    );
  }

  /**
   * Stores an upload as a distribution file. The name is the custom name or the original one; it must be a
   * plain file name with an allowed extension. The bytes are committed from temporary storage only once
   * everything else is known to be fine; a failed insert removes them again.
   */
  async upload(dto: UploadDistributionFileDto, upload: StoredUpload | undefined, actor: AuthUser): Promise<FileWithVersion> {
    if (!upload || upload.size === 0) throw ApiError.badRequest(PLEASE_SELECT_A_FILE, { file: [PLEASE_SELECT_A_FILE] });
    const fileName = dto.file_name?.trim() || upload.originalname;
    const problem = fileNameProblem(fileName);
    if (problem) throw ApiError.badRequest(problem, { [dto.file_name?.trim() ? 'file_name' : 'file']: [problem] });
    const extension = extensionOf(fileName, DISTRIBUTION_EXTENSIONS);
    if (!extension) {
      const refusal = fileTypeNotAllowed(DISTRIBUTION_EXTENSIONS);
      throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, refusal.message, { file_name: [refusal.message] });
    }
    const [version] = await this.versions.findByIds([dto.version_id]);
    if (!version) {
      const message = `Version ${dto.version_id} not found`;
      throw new ApiError(HttpStatus.NOT_FOUND, message, { version_id: [message] });
    }
    if (await this.files.existsBy({ version_id: version.id, file_name: fileName })) throw duplicateName(fileName, version.version);

    const storageKey = `files/${randomUUID()}${extension}`;
    await this.storage.commit(upload, storageKey);
    try {
      const inserted = await this.files.insert({
        version_id: version.id,
        version_number: version.version,
        os_type: dto.os_type,
        architecture: dto.architecture,
        file_name: fileName,
        storage_key: storageKey,
        file_size: upload.size,
        file_hash: upload.sha256,
        download_count: 0,
        created_by: actor.id,
      });
      this.changed();
      return await this.get(inserted.identifiers[0].id as number);
    } catch (error) {
      await this.storage.remove(storageKey);
      if (isUniqueViolation(error)) throw duplicateName(fileName, version.version);
      if (isForeignKeyViolation(error)) throw ApiError.notFound(`Version ${dto.version_id} not found`);
      throw error;
    }
  }

  /** Kept between changes made here (another instance's changes show within KeptFigures' minute). */
  async stats(): Promise<FileStatsDto> {
    await this.counter.flush();
    return this.figures.get('stats', () => this.countStats());
  }

  /** Something was written: the list counts anew and the stats are recomputed. */
  private changed(): void {
    this.totals.clear();
    this.figures.clear();
    this.searchIds.clear();
    this.catalogFiles.clear();
  }

  private async countStats(): Promise<FileStatsDto> {
    const rows = await OffLoopReads.for(this.files.manager.connection).rows<{
      os_type: OsType;
      count: string | number;
      downloads: string | number;
      size: string | number;
    }>(
      this.files
        .createQueryBuilder('f')
        .select('f.os_type', 'os_type')
        .addSelect('COUNT(*)', 'count')
        .addSelect('COALESCE(SUM(f.download_count), 0)', 'downloads')
        .addSelect('COALESCE(SUM(f.file_size), 0)', 'size')
        .groupBy('f.os_type'),
    );
    const files_by_os = rows
      .map((row) => ({ os_type: row.os_type, count: Number(row.count), downloads: Number(row.downloads), size: Number(row.size) }))
      .sort((a, b) => OS_TYPES.indexOf(a.os_type) - OS_TYPES.indexOf(b.os_type));
    return {
      total_files: files_by_os.reduce((sum, row) => sum + row.count, 0),
      total_downloads: files_by_os.reduce((sum, row) => sum + row.downloads, 0),
      total_size: files_by_os.reduce((sum, row) => sum + row.size, 0),
      files_by_os,
    };
  }

  /** Deletes the row, then the stored bytes. */
  async remove(id: number): Promise<void> {
    const file = await this.files.findOneBy({ id });
    if (!file) throw ApiError.notFound(`File ${id} not found`);
    const result = await this.files.delete({ id });
    this.downloadable.delete(id);
    this.changed();
    if (!result.affected) throw ApiError.notFound(`File ${id} not found`);
    await this.storage.remove(file.storage_key);
  }

  /** A version being deleted takes its files along: rows first, then the stored bytes. */
  @OnAwaitedEvent(VERSION_DELETING)
  async removeForVersion({ versionId }: VersionDeletingEvent): Promise<void> {
    const files = await this.files.find({ where: { version_id: versionId }, select: { id: true, storage_key: true } });
    if (!files.length) return;
    await this.files.delete({ id: In(files.map((file) => file.id)) });
    this.changed();
    for (const file of files) this.downloadable.delete(file.id);
    for (const file of files) await this.storage.remove(file.storage_key);
  }

  /**
   * A version is being renamed: its files' copy of the number (their sort key) changes in the same transaction;
   * once it is committed, the list counts and searches anew (a search before that would still find the old number).
   */
  @OnAwaitedEvent(VERSION_RENAMED)
  async renameVersion({ versionId, version, transaction }: VersionRenamedEvent): Promise<() => void> {
    await managerOf(transaction).query('UPDATE distribution_files SET version_number = ? WHERE version_id = ?', [version, versionId]);
    return () => {
      this.totals.clear();
      this.searchIds.clear();
      this.catalogFiles.clear();
    };
  }

  /**
   * The file and its version number for a download, in one statement (the download hot path), kept for
   * DOWNLOADABLE_TTL_MS: another instance's deletion shows here within that time (until then the download
   * answers 404 from storage, as the bytes are gone). Unknown ids are not kept, so a new upload shows at once.
   */
  async findDownloadable(id: number): Promise<DownloadableFile | null> {
    const now = Date.now();
    const kept = this.downloadable.get(id);
    if (kept && now - kept.at < DOWNLOADABLE_TTL_MS) return kept.row;
    const found = await this.sql.one<DownloadableFile>(DOWNLOADABLE_SQL, [id]);
    if (!found) {
      this.downloadable.delete(id);
      return null;
    }
    const row = { ...found, file_size: Number(found.file_size) };
    this.downloadable.delete(id);
    this.downloadable.set(id, { row, at: now });
    if (this.downloadable.size > DOWNLOADABLE_KEPT) this.downloadable.delete(this.downloadable.keys().next().value!);
    return row;
  }

  /** Counts one download; stored within a second (see `counter`). */
  countDownload(id: number): void {
    this.counter.add(id);
  }

  /** Stores the counts still held in memory. */
  flushDownloadCounts(): Promise<void> {
    return this.counter.flush();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.counter.flush();
  }
}

function duplicateName(fileName: string, version: string): ApiError {
  const message = `A file named ${fileName} already exists for version ${version}`;
  return ApiError.conflict(message, { file_name: [message] });
}
