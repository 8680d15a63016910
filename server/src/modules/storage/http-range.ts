import type { ByteRange } from './file-storage';

/**
 * Reads a `Range` header for a resource of `size` bytes (RFC 9110 §14): one range gives that range, a header
 * that is absent, malformed, not in bytes or asks for several ranges gives null (serve the whole file, as the
 * RFC allows), and a well-formed range that lies wholly beyond the end gives 'unsatisfiable' (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return null;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  if (last !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const CONTENT_TYPES: Array<[string, string]> = [
  ['.tar.gz', 'application/gzip'],
  ['.deb', 'application/vnd.debian.binary-package'],
  ['.rpm', 'application/x-rpm'],
  ['.zip', 'application/zip'],
  ['.exe', 'application/vnd.microsoft.portable-executable'],
  ['.dmg', 'application/x-apple-diskimage'],
  ['.pkg', 'application/octet-stream'],
];

export function contentTypeOf(fileName: string): string {
  const lower = fileName.toLowerCase();
  return CONTENT_TYPES.find(([ext]) => lower.endsWith(ext))?.[1] ?? 'application/octet-stream';
}
