/**
 * The bytes of small stored files, kept in memory (least recently used go first). Stored objects never change
 * under their key (a new upload is a new key), so what is kept is never stale; a deleted file is refused by its
 * row before its bytes are looked up. Saves a small download the file system or object store round trips
 * (open, stat, read, close; or HEAD and GET), which cost more than sending 32 KB.
 */
export class SmallFileCache {
  private readonly kept = new Map<string, Buffer>();
  private total = 0;

  constructor(
    /** Files up to this size are kept. */
    readonly maxFileBytes = 256 * 1024,
    /** Bytes kept at most, all files together. */
    readonly maxTotalBytes = 64 * 1024 * 1024,
  ) {}

  fits(size: number): boolean {
    return size > 0 && size <= this.maxFileBytes && size <= this.maxTotalBytes;
  }

  get(key: string): Buffer | undefined {
    const bytes = this.kept.get(key);
    if (bytes) {
      this.kept.delete(key);
      this.kept.set(key, bytes);
    }
    return bytes;
  }

  set(key: string, bytes: Buffer): void {
    if (!this.fits(bytes.length)) return;
    this.delete(key);
    this.kept.set(key, bytes);
    this.total += bytes.length;
    for (const [oldest, old] of this.kept) {
      if (this.total <= this.maxTotalBytes) break;
      this.kept.delete(oldest);
      this.total -= old.length;
    }
  }

  delete(key: string): void {
    const bytes = this.kept.get(key);
    if (!bytes) return;
    this.kept.delete(key);
    this.total -= bytes.length;
  }

  /** Bytes kept now. */
  get size(): number {
    return this.total;
  }
}
