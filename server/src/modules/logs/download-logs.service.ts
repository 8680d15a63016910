import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { whereSearch } from '../../common/pagination';
import { GroupCommit } from '../../database/group-commit';
import { PreparedSql } from '../../database/prepared-sql';
import { DownloadLogEntity } from './download-log.entity';

export type DownloadLogEntry = Omit<DownloadLogEntity, 'id'>;

const COLUMNS: Array<keyof DownloadLogEntry> = [
  'user_id',
  'user_email',
  'file_id',
  'file_name',
  'version',
  'os_type',
  'architecture',
  'file_size',
  'ip_address',
  'user_agent',
  'via',
  'created_at',
];

export interface DownloadLogPage {
  rows: DownloadLogEntity[];
  total: number;
  page: number;
  limit: number;
}

export interface DownloadLogQuery {
  page?: number;
  limit?: number;
  search?: string;
  order?: 'asc' | 'desc';
  user_id?: number;
}

/** The download logs: one row per download, written in batches (group commit), read per user or for the admin. */
@Injectable()
export class DownloadLogsService implements BeforeApplicationShutdown {
  private readonly sql: PreparedSql;
  private readonly writer = new GroupCommit<DownloadLogEntry>((entries) =>
    this.sql.insertMany(
      'download_logs',
      COLUMNS,
      entries.map((entry) => COLUMNS.map((column) => entry[column])),
    ),
  );

  constructor(
    dataSource: DataSource,
    @InjectRepository(DownloadLogEntity) private readonly logs: Repository<DownloadLogEntity>,
  ) {
    this.sql = PreparedSql.for(dataSource);
  }

  /** Resolves once the row is stored. */
  record(entry: DownloadLogEntry): Promise<void> {
    return this.writer.add({
      ...entry,
      user_email: entry.user_email?.slice(0, 255) ?? null,
      file_name: entry.file_name.slice(0, 200),
      version: entry.version?.slice(0, 50) ?? null,
      ip_address: entry.ip_address?.slice(0, 64) ?? null,
      user_agent: entry.user_agent?.slice(0, 500) ?? null,
    });
  }

  /** Newest first; search over file name, version, user e-mail, IP address and user agent. */
  async list(query: DownloadLogQuery): Promise<DownloadLogPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 25;
    const qb = this.logs.createQueryBuilder('l');
    if (query.user_id !== undefined) qb.andWhere('l.user_id = :user', { user: query.user_id });
    whereSearch(qb, ['l.file_name', 'l.version', 'l.user_email', 'l.ip_address', 'l.user_agent'], query.search);
    const direction = (query.order ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
    const [rows, total] = await qb
      .orderBy('l.created_at', direction)
      .addOrderBy('l.id', direction)
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { rows, total, page, limit };
  }

  /** Deletes every download log; returns how many rows went. */
  async clear(): Promise<number> {
    await this.writer.drain();
    return (await this.logs.createQueryBuilder().delete().execute()).affected ?? 0;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.drain();
  }
}
