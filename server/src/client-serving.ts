import type { NextFunction, Request, Response } from 'express';
import { statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

/** Content types of what a client build holds. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** The compressed twins the client build writes next to its text files (client/vite.config.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Found {
  path: string;
  size: number;
  mtime: Date;
}

interface Asset {
  type: string;
  /** Hashed names under /assets/ never change their bytes: cached for good. Everything else is revalidated. */
  cacheControl: string;
  identity: Found;
  /** The compressed twins that exist. */
  variants: Partial<Record<Encoding, Found>>;
}

/** The encodings a request accepts (q > 0), from its Accept-Encoding; none without the header. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name);
  }
  if (accepted.has('*')) for (const { name } of ENCODINGS) accepted.add(name);
  return accepted;
}

/**
 * The built web client: each file sent as the best compressed twin the request accepts (br, then gzip, else as
 * it is), with `Vary: Accept-Encoding`, its own Content-Type and the twin's Content-Length; hashed assets cached
 * for good, the page (and every route of the app, which gets the page) revalidated each time. A build does not
 * change under a running server, so what is found on disk is looked up once.
 */
export function precompressedClient(dist: string) {
  const root = resolve(dist);
  const assets = new Map<string, Asset | null>();

  const found = (path: string): Found | null => {
    try {
      const stat = statSync(path);
      return stat.isFile() ? { path, size: stat.size, mtime: stat.mtime } : null;
    } catch {
      return null;
    }
  };

  const assetAt = (relative: string): Asset | null => {
    let asset = assets.get(relative);
    if (asset !== undefined) return asset;
    const path = join(root, relative);
    const identity = path.startsWith(root + sep) ? found(path) : null;
    asset = identity && {
      type: TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: relative.startsWith('/assets/') ? IMMUTABLE : 'no-cache',
      identity,
      variants: Object.fromEntries(
        ENCODINGS.map(({ name, suffix }) => [name, found(`${path}${suffix}`)]).filter(([, variant]) => variant),
      ) as Asset['variants'],
    };
    // Keep what exists, and what does not only for a bounded number of names (probes of random paths).
    if (asset || assets.size < 10_000) assets.set(relative, asset);
    return asset;
  };

  const send = (request: Request, response: Response, next: NextFunction, asset: Asset, cacheControl = asset.cacheControl) => {
    const accepted = acceptedEncodings(request.headers['accept-encoding'] as string | undefined);
    const encoding = ENCODINGS.find(({ name }) => asset.variants[name] && accepted.has(name))?.name;
    const file = encoding ? asset.variants[encoding]! : asset.identity;
    if (Object.keys(asset.variants).length) response.setHeader('Vary', 'Accept-Encoding');
    if (encoding) response.setHeader('Content-Encoding', encoding);
    response.setHeader('Content-Type', asset.type);
    response.setHeader('Cache-Control', cacheControl);
    // The twin's own ETag and Last-Modified (send makes them from its size and time), its Content-Length; no
    // ranges, which would address the compressed bytes.
    response.sendFile(file.path, { acceptRanges: false, cacheControl: false, dotfiles: 'deny' }, (error) => {
      if (error && !response.headersSent) next(error);
    });
  };

  return {
    /** A file of the build, if the path names one. */
    files(request: Request, response: Response, next: NextFunction): void {
      if (request.method !== 'GET' && request.method !== 'HEAD') return next();
      let relative: string;
      try {
        relative = decodeURIComponent(request.path);
      } catch {
        return next();
      }
      // Hidden files (the build's .vite/manifest.json) are not served, as express.static did not.
      if (relative.includes('\0') || relative.endsWith('/') || relative.includes('/.')) return next();
      const asset = assetAt(relative);
      if (!asset) return next();
      send(request, response, next, asset);
    },
    /** The page, for a route of the app. */
    page(request: Request, response: Response, next: NextFunction): void {
      const page = assetAt('/index.html');
      if (!page) return next();
      send(request, response, next, page, 'no-cache');
    },
  };
}
