import { createHash } from 'node:crypto';
import { Transform, TransformCallback, type Readable, type Writable } from 'node:stream';

/** An upload received into temporary space: complete, hashed, not yet visible under any key. */
export interface ReceivedUpload {
  /** Driver-specific handle of the temporary object (for the local driver, a path inside the temp folder). */
  tempId: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes, computed while they streamed in. */
  sha256: string;
}

/** The largest piece read at once: a download stream's chunk, and the largest range read into one buffer. */
export const READ_CHUNK_BYTES = 512 * 1024;

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** A stored object opened for reading: its size as stored, then exactly one of copyTo, read or close. */
export interface OpenedObject {
  size: number;
  /** Writes the bytes of a range to `destination` with backpressure (not ending it); the object closes after. */
  copyTo(range: ByteRange, destination: Writable): Promise<void>;
  /** The bytes of a small range (at most READ_CHUNK_BYTES) in one buffer; the object closes after. */
  read(range: ByteRange): Promise<Buffer>;
  /** Closes the object without reading it. */
  close(): void;
}

export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Upload exceeds ${maxBytes} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

/** Counts and hashes the bytes that pass; fails as soon as they exceed the limit. */
export class MeasuringStream extends Transform {
  readonly hash = createHash('sha256');
  // Not `size`: lib-storage reads a body's `size` as its length before the first byte.
  byteCount = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.byteCount += chunk.length;
    if (this.byteCount > this.maxBytes) return callback(new UploadTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/** The store failed to take an upload (not the client's doing): a 503 response, and nothing is stored. */
export class StorageUnavailableError extends Error {
  constructor(override readonly cause: unknown) {
    super(`The file store did not accept the upload: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'StorageUnavailableError';
  }
}

/**
 * Only `commit` makes an upload visible under its key, so a refused or aborted upload never leaves a stored file behind. Keys
 * are made by the portal (`files/<uuid>.<ext>`), never from a user's file name.
 */
export abstract class FileStorage {
  /** Streams `source` into temporary space; rejects with UploadTooLargeError beyond `maxBytes` (and stores nothing). */
  abstract receive(source: Readable, maxBytes: number): Promise<ReceivedUpload>;
  /** Moves a received upload under `key` (atomic on the local disk). */
  abstract commit(upload: ReceivedUpload, key: string): Promise<void>;
  /** Drops a received upload that will not be committed; a missing one is fine. */
  abstract discard(tempId: string): Promise<void>;
  /** Opens a stored object for reading (one lookup gives its size and its bytes), or null when it does not exist. */
  abstract open(key: string): Promise<OpenedObject | null>;
  /** Removes a stored object; a missing one is fine. */
  abstract remove(key: string): Promise<void>;
  /** Bytes used by stored objects (for health figures). */
  abstract usedBytes(): Promise<number>;
  /** A short-lived URL to fetch the object from directly (S3_DOWNLOADS=redirect); null when the portal sends the bytes itself. */
  downloadUrl(_key: string, _fileName: string, _contentType: string): Promise<string | null> {
    return Promise.resolve(null);
  }
}
