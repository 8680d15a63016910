import { gzipSync } from 'node:zlib';

export interface TarEntry {
  /** Path inside the archive, at most 100 bytes. */
  name: string;
  content: Buffer;
  /** Unix permission bits, e.g. 0o644 or 0o755. */
  mode: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** One ustar header block (POSIX.1-1988). */
function header(entry: TarEntry, mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK, 0);
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length > 100) throw new Error(`tar: name too long: ${entry.name}`);
  name.copy(block, 0);
  block.write(octal(entry.mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii'); // uid
  block.write(octal(0, 8), 116, 'ascii'); // gid
  block.write(octal(entry.content.length, 12), 124, 'ascii');
  block.write(octal(mtime, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii'); // checksum field counts as spaces while summing
  block.write('0', 156, 'ascii'); // regular file
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

/** A gzipped tar of regular files, made in memory; the same input gives the same bytes. */
export function tarGz(entries: TarEntry[], mtime = 0): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry, mtime), entry.content);
    const padding = (BLOCK - (entry.content.length % BLOCK)) % BLOCK;
    if (padding) parts.push(Buffer.alloc(padding, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
