import { read } from 'node:fs';
import type { Writable } from 'node:stream';
import { ByteRange, READ_CHUNK_BYTES } from './file-storage';

/** How many idle chunk buffers are held for reuse (16 MiB); busier moments allocate more, and drop them after. */
const IDLE_CHUNKS_MAX = 32;

/**
 * Read buffers shared by every download. A fresh 512 KiB buffer per chunk (what fs.createReadStream does) is
 * external memory that makes V8 run full garbage collections again and again while large files stream; reused
 * buffers keep the garbage collector out of the transfer.
 */
class ChunkPool {
  private readonly idle: Buffer[] = [];

  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
  }

  give(buffer: Buffer): void {
    if (this.idle.length < IDLE_CHUNKS_MAX) this.idle.push(buffer);
  }
}

const chunks = new ChunkPool();

/** Reads `length` bytes at `position` into `buffer`, repeating on a short read; fails if the file ends first. */
function readExactly(fd: number, buffer: Buffer, length: number, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number) =>
      read(fd, buffer, offset, length - offset, position + offset, (error, bytes) => {
        if (error) return reject(error);
        if (bytes === 0) return reject(new Error(`The file ended ${length - offset} bytes early`));
        if (offset + bytes < length) return step(offset + bytes);
        resolve();
      });
    if (length === 0) resolve();
    else step(0);
  });
}

/** One inclusive range of an open file, at most READ_CHUNK_BYTES long, in a buffer of its own. */
export async function readRange(fd: number, range: ByteRange): Promise<Buffer> {
  const length = range.end - range.start + 1;
  if (length > READ_CHUNK_BYTES) throw new RangeError(`A range of ${length} bytes is copied, not read at once`);
  const buffer = Buffer.allocUnsafe(length);
  await readExactly(fd, buffer, length, range.start);
  return buffer;
}

/** Node's own error for a stream that closed early, so callers treat it like any client going away. */
export function prematureClose(): NodeJS.ErrnoException {
  return Object.assign(new Error('The destination closed before the transfer ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * Writes a chunk; resolves once the destination no longer holds it (handed to the kernel for a socket). Fails as
 * soon as the destination closes: a response whose client went away does not always call back a pending write,
 * and a copy waiting on it forever would keep its file open.
 */
export function writeChunk(destination: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(prematureClose());
    if (destination.destroyed) return closed();
    destination.once('close', closed);
    destination.write(chunk, (error) => {
      destination.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * Copies one inclusive range of an open file to `destination`, one pooled chunk at a time: the next read starts
 * once the previous chunk was written out (backpressure), and the buffer is reused only then. Memory per
 * transfer is one chunk, whatever the file's size.
 */
export async function copyRange(fd: number, range: ByteRange, destination: Writable): Promise<void> {
  const buffer = chunks.take();
  try {
    for (let position = range.start; position <= range.end;) {
      const length = Math.min(READ_CHUNK_BYTES, range.end - position + 1);
      await readExactly(fd, buffer, length, position);
      await writeChunk(destination, buffer.subarray(0, length));
      position += length;
    }
  } finally {
    chunks.give(buffer);
  }
}
