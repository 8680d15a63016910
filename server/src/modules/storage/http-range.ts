import rangeParser from 'range-parser';
import type { ByteRange } from './file-storage';

/**
 * Reads a `Range` header for a resource of `size` bytes (RFC 9110 §14), parsed by range-parser (as Express's
 * `send` does): one range gives that range; a header that is absent, malformed, not in bytes or asks for several
 * ranges gives null (serve the whole file, as the RFC allows); a range that lies wholly beyond the end gives
 * 'unsatisfiable' (416). Where range-parser says "unsatisfiable" but the RFC says otherwise, the RFC wins:
 * a suffix longer than the file means the whole file (§14.1.2), and a range ending before it starts is invalid,
 * so the header is ignored (§14.1.1).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header || header.includes(',')) return null;
  const ranges = rangeParser(size, header.trim());
  if (ranges === -2) return null;
  if (ranges === -1) return beyondTheEnd(header, size);
  if (ranges.type.toLowerCase() !== 'bytes') return null;
  return { start: ranges[0].start, end: ranges[0].end };
}

/** What a single well-formed range that range-parser found unsatisfiable means by RFC 9110. */
function beyondTheEnd(header: string, size: number): ByteRange | null | 'unsatisfiable' {
  const [, first, last] = /^\s*bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) ?? [];
  if (first === undefined) return null;
  if (first === '' && size > 0 && Number(last) > size) return { start: 0, end: size - 1 };
  if (first !== '' && last !== '' && Number(last) < Number(first)) return null;
  return 'unsatisfiable';
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
