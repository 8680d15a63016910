import { HttpStatus, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import type { AuthUser } from '../../common/current-user.decorator';
import {
  OnAwaitedEvent,
  OnNotification,
  VERSION_DELETING,
  VERSION_RENAMED,
  VERSION_STATE_CHANGED,
  type VersionDeletingEvent,
  type VersionRenamedEvent,
} from '../../common/events';
import { ListTotals } from '../../common/list-totals';
import type { Page } from '../../common/pagination';
import { FileStorage } from '../storage/file-storage';
import { DISTRIBUTION_EXTENSIONS, extensionOf, fileNameProblem, fileTypeNotAllowed, PLEASE_SELECT_A_FILE } from '../storage/file-names';
import type { StoredUpload } from '../storage/upload.interceptor';
import { VersionsService, type VersionEntity } from '../versions/versions.service';
import { DistributionFileEntity, OS_TYPES } from './distribution-file.entity';
import { DistributionFilesRepository, type DownloadableFile, type FileWithVersion } from './distribution-files.repository';
import { ListDistributionFilesQueryDto, UploadDistributionFileDto } from './dto/distribution-file-form.dto';
import { FileStatsDto } from './dto/distribution-file.dto';

export type { DownloadableFile, FileWithVersion } from './distribution-files.repository';

export type FilePage = Page<FileWithVersion>;

/** A search matching at most this many files passes their ids to the page and its count (see list). */
const SEARCH_IDS = 1000;
/** How long a search's matching ids are cached (this instance's writes clear them; another's show within it). */
const SEARCH_IDS_TTL_MS = 5_000;

/** How long the client catalog's files of a page of versions are cached (this instance's writes and counts clear them). */
const CATALOG_FILES_TTL_MS = 5_000;

/** How long a file's download row is cached (a deletion here drops it at once). */
const DOWNLOADABLE_TTL_MS = 5_000;

/** Distribution files per version, OS and architecture: upload (validated, hashed, stored atomically), list, stats, delete, download counts. */
@Injectable()
export class DistributionFilesService {
  /**
   * The admin list's totals (bounded, see ListTotals); cleared when a file is added or removed here or its version is
   * renamed or deleted (every write its filters and search see), so exact ones are cached briefly too (another
   * instance's writes show within 5 s) instead of counted on every page of a filter.
   */
  private readonly totals = new ListTotals(60_000, 64, 5_000);
  /**
   * Recent searches' matching ids (see list): finding them reads every file name, so paging through a search, or the
   * list asked again after an action, reads them once. `ids` is null when the term matches more than SEARCH_IDS.
   */
  private readonly searchIds = new Cache<{ ids: number[] | null }>({ max: 64, ttlMs: SEARCH_IDS_TTL_MS });
  /** The stats (an aggregate of every file), cached until a file is added, removed or downloaded (see `changed`). */
  private readonly statsCache = new Cache<FileStatsDto>({ max: 16, ttlMs: 60_000, staleWhileRevalidate: true });
  /** The files of a page of the client catalog (every customer's dashboard reads them), by their versions' ids. */
  private readonly catalogFiles = new Cache<DistributionFileEntity[]>({ max: 64, ttlMs: CATALOG_FILES_TTL_MS });
  /**
   * The download path's row by id: a file's bytes, name and hash never change while it exists (a new upload is a
   * new row), so the row is cached briefly instead of read per request (an edited version number reaches the
   * download log within DOWNLOADABLE_TTL_MS).
   */
  private readonly downloadable = new Cache<DownloadableFile>({ max: 1_000, ttlMs: DOWNLOADABLE_TTL_MS });

  constructor(
    private readonly files: DistributionFilesRepository,
    private readonly versions: VersionsService,
    private readonly storage: FileStorage,
  ) {
    // Every read of counts here stores the held ones first, so this instance always shows what it served.
    files.onCountsWritten(() => {
      this.statsCache.clear();
      this.catalogFiles.clear();
    });
  }

  async list(query: ListDistributionFilesQueryDto): Promise<FilePage> {
    await this.files.flushDownloadCounts();
    const term = query.search?.trim();
    // A search's matching ids are read once (cached), then the page and its count share them.
    const matched = term
      ? (await this.searchIds.get(term, async () => ({ ids: await this.files.matchingIds(term, SEARCH_IDS) }))).ids
      : undefined;
    const key = JSON.stringify([term ?? '', query.version_id ?? '', query.os_type ?? '', query.architecture ?? '']);
    return this.files.page(query, matched, { cache: this.totals, key });
  }

  async get(id: number): Promise<FileWithVersion> {
    await this.files.flushDownloadCounts();
    return ApiError.orNotFound(await this.files.findWithVersion(id), `File ${id} not found`);
  }

  /** Files of these versions, by OS, architecture and name (shared: not to be changed). */
  async forVersions(versionIds: number[]): Promise<DistributionFileEntity[]> {
    if (!versionIds.length) return [];
    await this.files.flushDownloadCounts();
    return this.catalogFiles.get(versionIds.join(','), () => this.files.forVersions(versionIds));
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
    if (await this.files.existsName(version.id, fileName)) throw duplicateName(fileName, version.version);

    const storageKey = `files/${randomUUID()}${extension}`;
    await this.storage.commit(upload, storageKey);
    let inserted: number | 'duplicate' | 'no-version' | null = null;
    try {
      inserted = await this.files.insert({
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
    } finally {
      if (typeof inserted !== 'number') await this.storage.remove(storageKey);
    }
    if (inserted === 'duplicate') throw duplicateName(fileName, version.version);
    if (typeof inserted !== 'number') throw ApiError.notFound(`Version ${dto.version_id} not found`);
    this.changed();
    return this.get(inserted);
  }

  /** Cached between changes made here (another instance's changes show within the cache's minute). */
  async stats(): Promise<FileStatsDto> {
    await this.files.flushDownloadCounts();
    return this.statsCache.get('stats', () => this.countStats());
  }

  /** Something was written: the list counts anew and the stats are recomputed. */
  private changed(): void {
    this.totals.clear();
    this.statsCache.clear();
    this.searchIds.clear();
    this.catalogFiles.clear();
  }

  private async countStats(): Promise<FileStatsDto> {
    const files_by_os = (await this.files.figuresByOs()).sort((a, b) => OS_TYPES.indexOf(a.os_type) - OS_TYPES.indexOf(b.os_type));
    return {
      total_files: files_by_os.reduce((sum, row) => sum + row.count, 0),
      total_downloads: files_by_os.reduce((sum, row) => sum + row.downloads, 0),
      total_size: files_by_os.reduce((sum, row) => sum + row.size, 0),
      files_by_os,
    };
  }

  /** Deletes the row, then the stored bytes. */
  async remove(id: number): Promise<void> {
    const file = ApiError.orNotFound(await this.files.findById(id), `File ${id} not found`);
    const deleted = await this.files.delete(id);
    this.downloadable.delete(String(id));
    this.changed();
    if (!deleted) throw ApiError.notFound(`File ${id} not found`);
    await this.storage.remove(file.storage_key);
  }

  /** A version being deleted takes its files along: rows first, then the stored bytes. */
  @OnAwaitedEvent(VERSION_DELETING)
  async removeForVersion({ versionId }: VersionDeletingEvent): Promise<void> {
    const files = await this.files.storedOfVersion(versionId);
    if (!files.length) return;
    await this.files.deleteByIds(files.map((file) => file.id));
    this.changed();
    for (const file of files) this.downloadable.delete(String(file.id));
    for (const file of files) await this.storage.remove(file.storage_key);
  }

  /**
   * A version is being renamed: its files' copy of the number (their sort key) changes in the same transaction;
   * once it is committed, the list counts and searches anew (a search before that would still find the old number).
   */
  @OnAwaitedEvent(VERSION_RENAMED)
  async renameVersion({ versionId, version, transaction }: VersionRenamedEvent): Promise<() => void> {
    await this.files.setVersionNumber(transaction, versionId, version);
    return () => this.changed();
  }

  /** The file's version as it is stored now (when it was published or yanked). */
  versionOf(file: DownloadableFile): Promise<VersionEntity> {
    return this.versions.get(file.version_id);
  }

  /** A version's state changed: its files' download rows (which carry it) are read anew. */
  @OnNotification(VERSION_STATE_CHANGED)
  versionStateChanged(): void {
    this.downloadable.clear();
  }

  /**
   * The file and its version number for a download, in one statement (the download path), cached for
   * DOWNLOADABLE_TTL_MS: another instance's deletion shows here within that time (until then the download
   * responds 404 from storage, as the bytes are gone). Unknown ids are not cached, so a new upload shows at once.
   */
  async findDownloadable(id: number): Promise<DownloadableFile | null> {
    const key = String(id);
    const cached = this.downloadable.peek(key);
    if (cached) return cached;
    const found = await this.files.findDownloadable(id);
    if (found) this.downloadable.set(key, found);
    return found;
  }

  /** Counts one download; stored within a second (see DistributionFilesRepository). */
  countDownload(id: number): void {
    this.files.countDownload(id);
  }

  flushDownloadCounts(): Promise<void> {
    return this.files.flushDownloadCounts();
  }
}

function duplicateName(fileName: string, version: string): ApiError {
  const message = `A file named ${fileName} already exists for version ${version}`;
  return ApiError.conflict(message, { file_name: [message] });
}
