import { HttpStatus, Injectable } from '@nestjs/common';
import { YANKED_LINK_GRACE_MS } from '../versions/versions.constants';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../common/api-error';
import { Cache } from '../../common/cache';
import { DistributionFilesService, DownloadableFile } from '../distribution-files/distribution-files.service';
import { DownloadChannel } from '../logs/logs.constants';
import { DownloadLogsService } from '../logs/download-logs.service';
import { FileStorage } from '../storage/file-storage';
import { type Customer, ReleaseCoverageService } from '../licenses/release-coverage.service';
import { sendStoredFile, SendOutcome, SMALL_FILE_BYTES } from '../storage/send-stored-file';

export interface Downloader {
  userId: number;
  email: string | null;
  via: DownloadChannel;
  /** The client's address (under the app's 'trust proxy'). */
  ip: string | null;
}

/**
 * Serves distribution files. A download that starts at the first byte counts once (an atomic
 * `download_count + n` update) and writes a download-log row; a resume (Range from a later byte), a HEAD or a
 * cache check does neither. Both are held in memory and written once a second for all downloads together, so
 * a download costs one database read (its session) and no write of its own; reads of counts and logs store
 * what is held first, and shutdown stores it after the last transfer ended.
 */
@Injectable()
export class DownloadsService {
  /**
   * The bytes of small files (the most requested ones: archives, installers of a few hundred KB) by storage key,
   * sent from memory instead of opened, read and closed in storage per download; at most 64 MiB of them. The
   * bytes under a key never change, so the ttl only lets go of files no longer asked for.
   */
  private readonly smallFiles = new Cache<Buffer>({ max: (64 * 1024 * 1024) / SMALL_FILE_BYTES, ttlMs: 60 * 60_000 });

  constructor(
    private readonly files: DistributionFilesService,
    private readonly logs: DownloadLogsService,
    private readonly storage: FileStorage,
    private readonly coverage: ReleaseCoverageService,
  ) {}

  /**
   * The file a download or a link asks for. Admins get any; others only a published version's: a draft's is 404,
   * a yanked one's 410, except through a link made before the yank, for YANKED_LINK_GRACE_MS after it; and only a
   * release their licenses let them download (403 with the reason's code, see ReleaseCoverageService).
   */
  async find(id: number, who: Customer & { linkNow?: number }): Promise<DownloadableFile> {
    const file = ApiError.orNotFound(await this.files.findDownloadable(id), `File ${id} not found`);
    if (who.role === 'admin') return file;
    if (file.version_state === 'draft') throw ApiError.notFound(`File ${id} not found`);
    if (file.version_state === 'published' && (await this.coverage.openToAll(file.version_channel))) return file;
    const version = await this.files.versionOf(file);
    if (file.version_state === 'yanked') {
      const withinGrace = who.linkNow !== undefined && version.yanked_at && who.linkNow <= version.yanked_at.getTime() + YANKED_LINK_GRACE_MS;
      if (!withinGrace)
        throw new ApiError(HttpStatus.GONE, `Version ${file.version} was withdrawn: download a current version from the dashboard.`);
    }
    await this.coverage.assertMayDownload(who, version);
    return file;
  }

  /** Stores the counts and log rows held in memory (before reading them back). */
  async flush(): Promise<void> {
    await Promise.all([this.files.flushDownloadCounts(), this.logs.flush()]);
  }

  /** The file a download needs, or null (the download path: cached briefly, see DistributionFilesService). */
  findKnown(id: number): Promise<DownloadableFile | null> {
    return this.files.findDownloadable(id);
  }

  /** Sends the file (or the part, or the status, the request asks for); a download from the first byte is counted and logged. */
  async send(file: DownloadableFile, who: Downloader, request: IncomingMessage, response: ServerResponse): Promise<SendOutcome> {
    return sendStoredFile(
      this.storage,
      request,
      response,
      { storageKey: file.storage_key, size: file.file_size, sha256: file.file_hash, fileName: file.file_name },
      (outcome) => {
        if (!outcome.fromStart) return;
        this.files.countDownload(file.id);
        this.logs.record({
          user_id: who.userId,
          user_email: who.email,
          file_id: file.id,
          file_name: file.file_name,
          version: file.version,
          os_type: file.os_type,
          architecture: file.architecture,
          file_size: file.file_size,
          ip_address: who.ip,
          user_agent: request.headers['user-agent'] ?? null,
          via: who.via,
          created_at: new Date(),
        });
      },
      this.smallFiles,
    );
  }
}
