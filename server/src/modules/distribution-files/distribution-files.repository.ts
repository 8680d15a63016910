import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { ListTotals } from '../../common/list-totals';
import { Page } from '../../common/pagination';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/driver-errors';
import { IntervalBatch } from '../../database/interval-batch';
import { OffLoopReads } from '../../database/off-loop-reads';
import { likePattern, readPageByIds, sortColumn } from '../../database/pages';
import { PreparedSql } from '../../database/prepared-sql';
import { managerOf, type Transaction } from '../../database/transaction-manager';
import type { VersionEntity } from '../versions/versions.service';
import { JOINABLE_VERSIONS as V } from '../versions/versions.repository';
import type { Channel, VersionState } from '../versions/versions.constants';
import { DistributionFileEntity, OsType } from './distribution-file.entity';
import { FileSortKey, ListDistributionFilesQueryDto } from './dto/distribution-file-form.dto';
import { EntityRows } from '../../database/entity-rows';

export type FileWithVersion = DistributionFileEntity & { version: VersionEntity };

export type NewFileRow = Omit<DistributionFileEntity, 'id' | 'version' | 'created_at' | 'updated_at'>;

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
  /** The version's state: only a published version's files are for everyone. */
  version_state: VersionState;
  /** The version's channel: a stable release is open to try, others follow the customer's licenses. */
  version_channel: Channel;
}

/** Files, downloads and bytes of one OS. */
export interface OsFigures {
  os_type: OsType;
  count: number;
  downloads: number;
  size: number;
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
  `f.version_id, ${V.numberColumn}, ${V.stateColumn} AS version_state, ${V.channelColumn} AS version_channel FROM distribution_files f INNER JOIN ${V.table} ON ${V.id} = f.version_id WHERE f.id = ?`;

/**
 * The ids of the files whose name, or whose version's number, matches a LIKE pattern. It reads names from the
 * (version_id, file_name) index, covering (id included), and the matching versions once from theirs, instead of
 * every file row in the list's order (or a version lookup per file).
 */
const matching = (search: string) =>
  `SELECT s.id FROM distribution_files s WHERE s.file_name LIKE ${search} ESCAPE '!' ` +
  `OR s.version_id IN (SELECT ${V.id} FROM ${V.table} WHERE ${V.numberColumn} LIKE ${search} ESCAPE '!')`;

/**
 * The distribution_files table, and the download counts held in memory for it: added up per file and written once
 * a second (`count = count + n` in SQL, so instances never overwrite each other); shutdown writes what is held
 * after the last download ended.
 */
@Injectable()
export class DistributionFilesRepository implements BeforeApplicationShutdown {
  private readonly logger = new Logger('DistributionFiles');
  private readonly sql: PreparedSql;
  private afterCountsWritten: () => void = () => undefined;
  private readonly counter = new IntervalBatch<number>(
    (ids) => this.addCounts(ids).finally(() => this.afterCountsWritten()),
    1000,
    (error) => this.logger.error(`Download counts not stored yet (held for the next try): ${(error as Error).message}`),
  );

  constructor(@InjectRepository(DistributionFileEntity) private readonly files: Repository<DistributionFileEntity>) {
    this.sql = PreparedSql.for(files.manager.connection);
  }

  /**
   * A page of the admin list. With a search, `matched` holds the ids of its matches (see matchingIds), which the
   * page and its count share; null when there were too many to pass on, and then both read the match as a subquery.
   */
  async page(
    query: ListDistributionFilesQueryDto,
    matched: number[] | null | undefined,
    totals: { cache: ListTotals; key: string },
  ): Promise<Page<FileWithVersion>> {
    const qb = this.files.createQueryBuilder('f');
    if (query.version_id !== undefined) qb.andWhere('f.version_id = :versionId', { versionId: query.version_id });
    if (query.os_type) qb.andWhere('f.os_type = :os', { os: query.os_type });
    if (query.architecture) qb.andWhere('f.architecture = :arch', { arch: query.architecture });
    const term = query.search?.trim();
    if (term) {
      if (matched) qb.andWhere(matched.length ? 'f.id IN (:...matched)' : '1 = 0', { matched });
      else qb.andWhere(`f.id IN (${matching(':search')})`, { search: likePattern(term) });
    }
    // A file's version is a required relation: every row read with it has one.
    return (await readPageByIds(
      qb,
      query,
      { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'f.id', fixed: ['f.created_at'] },
      totals,
      (ids) => EntityRows.of(this.files).byIdsWith(ids, 'version'),
    )) as Page<FileWithVersion>;
  }

  /** The ids of the files a search term matches, or null when more than `limit` do. */
  async matchingIds(term: string, limit: number): Promise<number[] | null> {
    const pattern = likePattern(term);
    const rows: Array<{ id: number | string }> = await this.files.query(`${matching('?')} LIMIT ${limit + 1}`, [pattern, pattern]);
    return rows.length <= limit ? rows.map((row) => Number(row.id)) : null;
  }

  async findWithVersion(id: number): Promise<FileWithVersion | null> {
    return (await this.files.findOne({ where: { id }, relations: { version: true } })) as FileWithVersion | null;
  }

  findById(id: number): Promise<DistributionFileEntity | null> {
    return this.files.findOneBy({ id });
  }

  forVersions(versionIds: number[]): Promise<DistributionFileEntity[]> {
    return this.files.find({ where: { version_id: In(versionIds) }, order: { os_type: 'ASC', architecture: 'ASC', file_name: 'ASC' } });
  }

  /** The id and stored bytes' key of each file of a version. */
  storedOfVersion(versionId: number): Promise<Array<Pick<DistributionFileEntity, 'id' | 'storage_key'>>> {
    return this.files.find({ where: { version_id: versionId }, select: { id: true, storage_key: true } });
  }

  existsName(versionId: number, fileName: string): Promise<boolean> {
    return this.files.existsBy({ version_id: versionId, file_name: fileName });
  }

  /** The new row's id; 'duplicate' when its version has a file of that name, 'no-version' when the version is gone. */
  async insert(row: NewFileRow): Promise<number | 'duplicate' | 'no-version'> {
    try {
      const inserted = await this.files.insert(row);
      return inserted.identifiers[0].id as number;
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      if (isForeignKeyViolation(error)) return 'no-version';
      throw error;
    }
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.files.delete({ id });
    return !!result.affected;
  }

  async deleteByIds(ids: number[]): Promise<void> {
    if (ids.length) await this.files.delete({ id: In(ids) });
  }

  /** The files' copy of their version's number, rewritten in the rename's transaction. */
  async setVersionNumber(transaction: Transaction, versionId: number, version: string): Promise<void> {
    await managerOf(transaction).query('UPDATE distribution_files SET version_number = ? WHERE version_id = ?', [version, versionId]);
  }

  /** Files, downloads and bytes per OS (an aggregate of every file: read off the event loop on SQLite). */
  async figuresByOs(): Promise<OsFigures[]> {
    const rows = await OffLoopReads.for(this.files.manager.connection).rows<
      { os_type: OsType } & Record<'count' | 'downloads' | 'size', string | number>
    >(
      this.files
        .createQueryBuilder('f')
        .select('f.os_type', 'os_type')
        .addSelect('COUNT(*)', 'count')
        .addSelect('COALESCE(SUM(f.download_count), 0)', 'downloads')
        .addSelect('COALESCE(SUM(f.file_size), 0)', 'size')
        .groupBy('f.os_type'),
    );
    return rows.map((row) => ({
      os_type: row.os_type,
      count: Number(row.count),
      downloads: Number(row.downloads),
      size: Number(row.size),
    }));
  }

  /** The file and its version number for a download, in one prepared statement. */
  async findDownloadable(id: number): Promise<DownloadableFile | null> {
    const found = await this.sql.one<DownloadableFile>(DOWNLOADABLE_SQL, [id]);
    return found ? { ...found, file_size: Number(found.file_size) } : null;
  }

  /** Counts one download; stored within a second. */
  countDownload(id: number): void {
    this.counter.add(id);
  }

  flushDownloadCounts(): Promise<void> {
    return this.counter.flush();
  }

  /** `listener` runs after each write of held counts (or its failure): what is cached of counts is stale. */
  onCountsWritten(listener: () => void): void {
    this.afterCountsWritten = listener;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.counter.flush();
  }

  private addCounts(ids: number[]): Promise<void> {
    const perFile = new Map<number, number>();
    for (const id of ids) perFile.set(id, (perFile.get(id) ?? 0) + 1);
    return this.sql.runEach(
      'UPDATE distribution_files SET download_count = download_count + ? WHERE id = ?',
      [...perFile].map(([id, count]) => [count, id]),
    );
  }
}
