import { Injectable, Logger } from '@nestjs/common';
import { MAX_LENGTH } from '../../database/column-lengths';
import { WrittenBehindLog } from '../../common/written-behind-log';
import { dayOf } from './daily-stats.service';
import { DownloadLogEntity } from './download-log.entity';
import { DownloadLogEntry, DownloadLogQuery, DownloadLogsRepository } from './download-logs.repository';

export type { DownloadLogEntity } from './download-log.entity';
export type { DownloadLogEntry, DownloadLogQuery } from './download-logs.repository';

/**
 * The download logs: one row per download, written behind (a download never waits for its row), read per user or
 * for the admin. Each batch also adds to the per-day download figures, so charts never count log rows; rows and
 * figures are stored in one transaction, so a batch held for another try is never counted twice. Clearing the log
 * leaves the download counts and per-day figures.
 */
@Injectable()
export class DownloadLogsService extends WrittenBehindLog<DownloadLogEntry, DownloadLogEntity, DownloadLogQuery> {
  constructor(repository: DownloadLogsRepository) {
    super(repository, (entries) => repository.insert(entries, countPerDay(entries)), 'download_logs', new Logger('DownloadLogs'));
  }

  /** Queues the row: stored within a second, or by `flush`, or at shutdown. */
  record(entry: DownloadLogEntry): void {
    this.writer.add({
      ...entry,
      user_email: entry.user_email?.slice(0, MAX_LENGTH.email) ?? null,
      file_name: entry.file_name.slice(0, MAX_LENGTH.fileName),
      version: entry.version?.slice(0, MAX_LENGTH.version) ?? null,
      ip_address: entry.ip_address?.slice(0, MAX_LENGTH.ip) ?? null,
      user_agent: entry.user_agent?.slice(0, MAX_LENGTH.userAgent) ?? null,
    });
  }
}

/** Downloads per UTC day by OS, by `os|architecture` and by version (keys `metric\tday\tdimension`). */
function countPerDay(entries: DownloadLogEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const entry of entries) {
    const day = dayOf(entry.created_at);
    const os = entry.os_type ?? '';
    count(`downloads_os\t${day}\t${os}`);
    count(`downloads_platform\t${day}\t${os}|${entry.architecture ?? ''}`);
    count(`downloads_version\t${day}\t${entry.version ?? ''}`);
  }
  return counts;
}
