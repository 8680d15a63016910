import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import { gzipSync } from 'node:zlib';

/** Responses smaller than this go as they are: compressing them saves less than it costs. */
const COMPRESS_ABOVE = 1024;
/** A response sent whole up to this size is gzipped in one call, short enough to hold the event loop well under a millisecond. */
export const GZIP_WHOLE_MAX = 64 * 1024;
/** `Cache-Control: no-transform`: the response must reach the client as it is. */
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Compresses responses of a compressible type above 1 kB for clients that accept it. One sent whole (a list, a report:
 * Nest's `res.json`) of up to GZIP_WHOLE_MAX is gzipped in one call (see gzipWholeResponse); a larger or streamed one,
 * or one for a client that takes br only, through the compression middleware's stream (gzip, or br when preferred).
 */
export function compressedResponses() {
  const filter = (request: Request, response: Response) => compression.filter(request, response);
  const compress = compression({ threshold: COMPRESS_ABOVE, filter });
  return (request: Request, response: Response, next: NextFunction) =>
    compress(request, response, (error?: unknown) => {
      if (!error) gzipWholeResponse(request, response, filter);
      next(error);
    });
}

/**
 * Gzips (level 1) a response sent whole, in one synchronous call, when the client accepts gzip. The compression
 * middleware's stream would send it through zlib's thread pool, whose threads share the cores with the event loop
 * (figures: docs/ARCHITECTURE.md, Where we leave the framework). Installed over the middleware's hooks: what this
 * leaves (written in parts, larger, gzip not accepted) that middleware compresses as before, and what this encodes
 * it passes on as already encoded.
 */
function gzipWholeResponse(request: Request, response: Response, filter: (request: Request, response: Response) => boolean): void {
  if (request.method === 'HEAD' || !request.acceptsEncodings('gzip')) return;
  const end = response.end as (this: Response, ...args: unknown[]) => Response;
  response.end = function (this: Response, ...args: unknown[]) {
    const body = this.headersSent ? null : wholeBody(args[0], args[1]);
    const compress =
      body !== null &&
      body.length >= COMPRESS_ABOVE &&
      body.length <= GZIP_WHOLE_MAX &&
      !this.getHeader('Content-Encoding') &&
      !NO_TRANSFORM.test(String(this.getHeader('Cache-Control') ?? '')) &&
      filter(request, this);
    if (!compress) return end.apply(this, args);
    const gzipped = gzipSync(body, { level: 1 });
    this.vary('Accept-Encoding');
    this.setHeader('Content-Encoding', 'gzip');
    this.setHeader('Content-Length', gzipped.length);
    const callback = args.find((arg) => typeof arg === 'function');
    return callback ? end.call(this, gzipped, callback) : end.call(this, gzipped);
  } as Response['end'];
}

/** The bytes `end(chunk, encoding)` sends, where it sends a body (not a callback alone). */
function wholeBody(chunk: unknown, encoding: unknown): Buffer | null {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk !== 'string') return null;
  // Longer in characters is longer in bytes: not copied only to be found too large.
  if (chunk.length > GZIP_WHOLE_MAX) return null;
  return Buffer.from(chunk, typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8');
}
