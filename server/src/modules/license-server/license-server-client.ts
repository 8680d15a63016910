import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';

/** Items per page of a pull (the sync API's most). */
const PAGE_SIZE = 500;
/** Pages of one kind a pull takes at most (5,000,000 items), so a run always ends. */
const MAX_PAGES = 10_000;

/** Why a call to the external license server failed, in words an admin can act on. */
export class LicenseServerError extends Error {
  constructor(
    message: string,
    /** True when the server did not respond in time. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'LicenseServerError';
  }
}

export interface LicenseServerConnection {
  /** Base URL of the other portal, without a trailing slash. */
  url: string;
  apiToken: string;
  timeoutSeconds: number;
  /** Aborts calls in flight when the portal shuts down. */
  signal?: AbortSignal;
}

/**
 * Talks to the sync API of an external license server (another StreamHub portal): bearer token, a timeout per
 * call, and every response checked against its DTO before it is used.
 */
export class LicenseServerClient {
  constructor(readonly connection: LicenseServerConnection) {}

  get url(): string {
    return this.connection.url;
  }

  async call<T extends object>(method: 'GET' | 'PUT' | 'POST', path: string, responseType: new () => T, body?: unknown): Promise<T> {
    const { url, apiToken, timeoutSeconds, signal } = this.connection;
    const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
    let response: Response;
    try {
      response = await fetch(`${url}/api/license-server/sync${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${apiToken}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted)
        throw new LicenseServerError(`The call to the license server at ${url} was stopped: the portal is shutting down`);
      if ((error as Error).name === 'TimeoutError') {
        throw new LicenseServerError(`The license server at ${url} did not answer within ${timeoutSeconds} s`, true);
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new LicenseServerError(
        `The license server at ${url} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    if (!response.ok) {
      const message = (json as { message?: unknown } | null)?.message;
      const reason = typeof message === 'string' ? message : response.statusText || 'no reason given';
      throw new LicenseServerError(`The license server at ${url} answered ${response.status}: ${reason}`);
    }
    const instance = plainToInstance(responseType, json ?? {});
    const failures = await validate(instance as object, { forbidUnknownValues: false });
    if (json === null || failures.length) {
      throw new LicenseServerError(`The license server at ${url} sent an answer this portal does not understand (${describe(failures)})`);
    }
    return instance;
  }

  /** The license server's items of one kind after `afterId`, page by page (at most MAX_PAGES), oldest first. */
  async *pages<T extends { id: number }>(path: string, pageType: new () => { data: T[] }, afterId = 0): AsyncGenerator<T[]> {
    const separator = path.includes('?') ? '&' : '?';
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await this.call('GET', `${path}${separator}after_id=${afterId}&limit=${PAGE_SIZE}`, pageType);
      if (!data.length) return;
      yield data;
      if (data.length < PAGE_SIZE) return;
      afterId = data[data.length - 1].id;
    }
  }
}

function describe(failures: Awaited<ReturnType<typeof validate>>): string {
  const first = failures[0];
  if (!first) return 'not JSON';
  const nested = first.children?.length ? describe(first.children) : Object.values(first.constraints ?? {})[0];
  return `${first.property}: ${nested}`;
}
