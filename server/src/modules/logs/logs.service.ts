import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { COUNT_CAP, LogFilters, LogPage, RawRow } from '../../common/log-listing';
import { pageMeta } from '../../common/pagination';
import { AccessLogService } from '../access-log/access-log.service';
import { AuditLogService } from './audit-log.service';
import { DownloadLogsService } from './download-logs.service';
import { RemoteLogsService } from './remote-logs.service';
import { LogEntryDto, LogKind, LogPageMetaDto, LogSourceName, SystemLogsDto } from './dto/logs.dto';
import { fromAccess, fromAudit, fromDownload, fromRemote } from './log-entries';
import { accessWriter, auditWriter, downloadWriter, LogExportWriter, remoteWriter, systemWriter } from './log-export';

export interface EntryPage {
  entries: LogEntryDto[];
  meta: LogPageMetaDto;
}

/** The System Logs screen's view over every log: one entry shape, one set of filters, exports and clearing. */
@Injectable()
export class LogsService {
  constructor(
    private readonly audit: AuditLogService,
    private readonly access: AccessLogService,
    private readonly downloads: DownloadLogsService,
    private readonly remote: RemoteLogsService,
  ) {}

  /** Local (audit) and remote entries; both when no source is named, merged newest (or oldest) first. */
  async system(filters: LogFilters, source?: 'local' | 'remote'): Promise<{ data: SystemLogsDto; meta: LogPageMetaDto }> {
    if (source === 'local') {
      const page = await this.audit.list(filters);
      return { data: { local_logs: page.rows.map(fromAudit), remote_logs: [] }, meta: metaOf(page) };
    }
    if (source === 'remote') {
      const page = await this.remote.list(filters);
      return { data: { local_logs: [], remote_logs: page.rows.map(fromRemote) }, meta: metaOf(page) };
    }
    // The page of the merged list lies within the first page × limit entries of each part.
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 25;
    const depth = Math.min(page * limit, COUNT_CAP);
    const [local, remote] = await Promise.all([
      this.audit.list({ ...filters, page: 1, limit: depth }),
      this.remote.list({ ...filters, page: 1, limit: depth }),
    ]);
    const direction = filters.order === 'asc' ? 1 : -1;
    const merged = [...local.rows.map(fromAudit), ...remote.rows.map(fromRemote)]
      .sort((a, b) => direction * (a.created_at.getTime() - b.created_at.getTime()))
      .slice((page - 1) * limit, page * limit);
    const total = Math.min(local.total + remote.total, COUNT_CAP);
    return {
      data: { local_logs: merged.filter((e) => e.source === 'local'), remote_logs: merged.filter((e) => e.source === 'remote') },
      meta: { ...pageMeta(total, page, limit), total_capped: local.capped || remote.capped || local.total + remote.total > COUNT_CAP },
    };
  }

  async accessLogs(filters: LogFilters): Promise<EntryPage> {
    const page = await this.access.list(filters);
    return { entries: page.rows.map(fromAccess), meta: metaOf(page) };
  }

  async downloadLogs(filters: LogFilters): Promise<EntryPage> {
    const page = await this.downloads.list(filters);
    return { entries: page.rows.map(fromDownload), meta: metaOf(page) };
  }

  /** Every entry of the kind as raw rows, in batches, oldest first (system: local, then remote), and how to write them. */
  export(kind: LogKind, filters: LogFilters): { batches: AsyncGenerator<RawRow[]>; writer: LogExportWriter } {
    const sources = {
      system: [this.audit, this.remote],
      local: [this.audit],
      remote: [this.remote],
      access: [this.access],
      downloads: [this.downloads],
    }[kind];
    const writer = { system: systemWriter, local: auditWriter, remote: remoteWriter, access: accessWriter, downloads: downloadWriter }[
      kind
    ];
    async function* batches() {
      for (const source of sources) yield* source.batches(filters);
    }
    return { batches: batches(), writer };
  }

  /** Empties a log; the audit trail is never cleared here (it records who cleared what). */
  async clear(kind: LogKind): Promise<LogSourceName[]> {
    if (kind === 'local') {
      throw ApiError.badRequest('The audit trail (local logs) cannot be cleared; it is pruned after its retention period.');
    }
    if (kind === 'system' || kind === 'remote') {
      await this.remote.clear();
      return ['remote'];
    }
    if (kind === 'access') await this.access.clear();
    else await this.downloads.clear();
    return [kind];
  }
}

function metaOf(page: LogPage<unknown>): LogPageMetaDto {
  return { ...pageMeta(page.total, page.page, page.limit), total_capped: page.capped };
}
