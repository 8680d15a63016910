import { BeforeApplicationShutdown, HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { SettingsService } from '../settings/settings.service';
import { LicenseServerClient, LicenseServerError } from './license-server-client';

/**
 * The way to the external license server that settings name (license_server.url and api_token), shared by every
 * part of the sync: a client when one is configured, its failures turned into 502/504 and recorded as the last error,
 * and one queue so that syncs, pushes, retries and reconciles of this instance run one at a time.
 */
@Injectable()
export class LicenseServerConnection implements BeforeApplicationShutdown {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly stopping = new AbortController();

  constructor(private readonly settings: SettingsService) {}

  beforeApplicationShutdown(): void {
    this.stop();
  }

  /** Abandons the calls in flight and refuses new ones (shutdown). */
  stop(): void {
    this.stopping.abort();
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** A client of the configured license server (with at most `timeoutSeconds`), or null when there is none. */
  async client(timeoutSeconds?: number): Promise<LicenseServerClient | null> {
    const { url, api_token, timeout_seconds } = await this.settings.get('license_server');
    if (!url) return null;
    const timeout = Math.min(timeout_seconds, timeoutSeconds ?? timeout_seconds);
    return new LicenseServerClient({ url, apiToken: api_token, timeoutSeconds: timeout, signal: this.stopping.signal });
  }

  /** The client, or 409 when this portal is its own license server. */
  async requireClient(): Promise<LicenseServerClient> {
    const client = await this.client();
    if (!client) throw ApiError.conflict('No external license server is configured: this portal is its own license server');
    return client;
  }

  /** A license-server failure becomes a 502 (504 on a timeout) with its reason, and is recorded as the last error. */
  async guarded<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (!(error instanceof LicenseServerError)) throw error;
      await this.settings.recordSyncState({ last_error: error.message });
      throw new ApiError(error.timedOut ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.BAD_GATEWAY, error.message);
    }
  }

  /** Pages of a pull, each call guarded (see `guarded`). */
  async *guardedPages<T extends { id: number }>(
    client: LicenseServerClient,
    path: string,
    pageType: new () => { data: T[] },
    afterId = 0,
  ): AsyncGenerator<T[]> {
    const pages = client.pages(path, pageType, afterId);
    for (;;) {
      const next = await this.guarded(pages.next());
      if (next.done) return;
      yield next.value;
    }
  }

  /** Runs `work` after the work queued before it (whether that succeeded or failed). */
  serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
