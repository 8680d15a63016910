import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../common/api-error';
import type { Cache } from '../../common/cache';
import { ByteRange, FileStorage, READ_CHUNK_BYTES } from './file-storage';
import { contentDisposition, contentTypeOf, parseRange } from './http-range';

/** Files up to this size are read whole and cached when the sender gives a cache (see sendStoredFile). */
export const SMALL_FILE_BYTES = 256 * 1024;

/** What a write to a response fails with once its client has disconnected. */
const CLIENT_GONE = new Set(['ERR_STREAM_DESTROYED', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE']);

export interface SendableFile {
  storageKey: string;
  size: number;
  /** SHA-256 hex; the strong ETag. */
  sha256: string;
  /** Offered name (Content-Disposition). */
  fileName: string;
}

export interface SendOutcome {
  /** 200, 206, 302 (to the object store), 304 or 416. */
  status: number;
  /** The bytes went out from the first one: a download that counts (not a resume, a HEAD or a cache check). */
  fromStart: boolean;
  range: ByteRange | null;
}

/**
 * Responds to GET or HEAD for a stored file: Content-Disposition, Content-Length, ETag, Accept-Ranges, Range → 206,
 * unsatisfiable → 416, If-None-Match → 304, If-Range. `beforeBody` runs once the response is known and before the
 * first byte (to count and log the download); the bytes then stream from storage with backpressure, never
 * held in memory as a whole. Resolves when the transfer ends (or the client went away). With `cache` (by storage
 * key), a small file's bytes are read from storage once and then sent from memory: stored objects never change
 * under their key (a new upload is a new key), so what is cached is never stale.
 */
export async function sendStoredFile(
  storage: FileStorage,
  request: IncomingMessage,
  response: ServerResponse,
  file: SendableFile,
  beforeBody?: (outcome: SendOutcome) => Promise<void> | void,
  cache?: Cache<Buffer>,
): Promise<SendOutcome> {
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Cache-Control': 'private, no-cache',
    'Content-Disposition': contentDisposition(file.fileName),
  };

  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    response.writeHead(304, headers).end();
    return { status: 304, fromStart: false, range: null };
  }

  const ifRange = request.headers['if-range'] as string | undefined;
  const rangeHeader = ifRange && ifRange.trim() !== etag ? undefined : request.headers.range;
  const range = parseRange(rangeHeader, file.size);
  if (range === 'unsatisfiable') {
    const body = JSON.stringify({ statusCode: 416, message: `Range not satisfiable: the file has ${file.size} bytes` });
    response
      .writeHead(416, { ...headers, 'Content-Range': `bytes */${file.size}`, 'Content-Type': 'application/json; charset=utf-8' })
      .end(body);
    return { status: 416, fromStart: false, range: null };
  }

  const status = range ? 206 : 200;
  const length = range ? range.end - range.start + 1 : file.size;
  headers['Content-Type'] = contentTypeOf(file.fileName);
  headers['Content-Length'] = length;
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
  const outcome: SendOutcome = { status, fromStart: request.method === 'GET' && (!range || range.start === 0), range };

  if (request.method === 'HEAD') {
    response.writeHead(status, headers).end();
    return outcome;
  }
  // Redirect mode: the store sends the bytes (and serves the Range the client repeats); the download counts now.
  const url = await storage.downloadUrl(file.storageKey, file.fileName, headers['Content-Type']);
  if (url) {
    const redirected: SendOutcome = { ...outcome, status: 302 };
    await beforeBody?.(redirected);
    response.writeHead(302, { Location: url, 'Cache-Control': 'private, no-store' }).end();
    return redirected;
  }
  const bytes = range ?? { start: 0, end: file.size - 1 };
  const cached = cache?.peek(file.storageKey);
  if (cached && cached.length === file.size) {
    await beforeBody?.(outcome);
    response.writeHead(status, headers).end(range ? cached.subarray(range.start, range.end + 1) : cached);
    return outcome;
  }
  const stored = await storage.open(file.storageKey);
  if (stored === null) throw ApiError.notFound('The file is missing from storage');
  if (stored.size !== file.size) {
    stored.close();
    throw ApiError.conflict('The stored file does not match its record; upload it again');
  }
  if (cache && file.size > 0 && file.size <= SMALL_FILE_BYTES && file.size <= READ_CHUNK_BYTES) {
    // The whole small file, read once and cached; this response sends its slice.
    const whole = stored.read({ start: 0, end: file.size - 1 });
    whole.catch(() => undefined); // its failure is reported below, once the count is settled
    await beforeBody?.(outcome);
    const all = await whole;
    cache.set(file.storageKey, all);
    response.writeHead(status, headers).end(range ? all.subarray(range.start, range.end + 1) : all);
    return outcome;
  }
  // What fits in one read goes out in one write, read while the download is being counted.
  const reading = length <= READ_CHUNK_BYTES ? stored.read(bytes) : null;
  reading?.catch(() => undefined); // its failure is reported below, once the count is settled
  try {
    await beforeBody?.(outcome);
  } catch (error) {
    if (!reading) stored.close();
    throw error;
  }
  const body = reading && (await reading);
  response.writeHead(status, headers);
  if (body) {
    response.end(body);
    return outcome;
  }
  try {
    await stored.copyTo(bytes, response);
    response.end();
  } catch (error) {
    // The client going away mid-transfer is routine (a resumable download resumes with Range).
    if (!CLIENT_GONE.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    response.destroy();
  }
  return outcome;
}
