import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../common/api-error';
import { DistributionFilesService, DownloadableFile } from '../distribution-files/distribution-files.service';
import { DownloadChannel } from '../logs/logs.constants';
import { DownloadLogsService } from '../logs/download-logs.service';
import { FileStorage } from '../storage/file-storage';
import { sendStoredFile, SendOutcome } from '../storage/send-stored-file';
import { SmallFileCache } from '../storage/small-file-cache';

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
  /** Small files (the most requested ones: archives, installers of a few hundred KB) answered from memory. */
  private readonly smallFiles = new SmallFileCache();

  constructor(
    private readonly files: DistributionFilesService,
    private readonly logs: DownloadLogsService,
    private readonly storage: FileStorage,
  ) {}

  async find(id: number): Promise<DownloadableFile> {
    const file = await this.files.findDownloadable(id);
    if (!file) throw ApiError.notFound(`File ${id} not found`);
    return file;
  }

  /** Stores the counts and log rows held in memory (before reading them back). */
  async flush(): Promise<void> {
    await Promise.all([this.files.flushDownloadCounts(), this.logs.flush()]);
  }

  /** The file a download needs, or null (the hot path: kept briefly, see DistributionFilesService). */
  findKnown(id: number): Promise<DownloadableFile | null> {
    return this.files.findDownloadable(id);
  }

  /** `onAnswer` runs once the answer is decided, right before it is counted and sent. */
  async send(
    file: DownloadableFile,
    who: Downloader,
    request: IncomingMessage,
    response: ServerResponse,
    onAnswer?: () => void,
  ): Promise<SendOutcome> {
    return sendStoredFile(
      this.storage,
      request,
      response,
      { storageKey: file.storage_key, size: file.file_size, sha256: file.file_hash, fileName: file.file_name },
      (outcome) => {
        onAnswer?.();
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
