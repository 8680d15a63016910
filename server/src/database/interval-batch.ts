/**
 * Write-behind for records nobody waits for (download counts and download logs): `add` only appends to memory;
 * everything added goes to the database in one write per interval (and at once on `flush`, which readers call
 * before they read and shutdown calls before the pools close). One write at a time; a failed write puts its
 * items back at the front, so the next interval tries them again and nothing counted is lost or counted twice.
 */
export class IntervalBatch<T> {
  private pending: T[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The last write failed: the next try waits for the interval, however many items are held. */
  private failing = false;
  /** See `dropped`. */
  private refused = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly intervalMs = 1000,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** Held items that start a write at once rather than at the end of the interval, so no one write grows large. */
    private readonly maxHeld = Infinity,
    /**
     * Items held at most, for records that may be lost rather than exhaust memory while the database takes none
     * (access-log rows); later ones are dropped and counted. Counts that must stay exact keep the default.
     */
    private readonly maxBacklog = Infinity,
  ) {}

  /** Items not yet written (for health figures and tests). */
  get size(): number {
    return this.pending.length;
  }

  /** Items refused because maxBacklog were held. */
  get dropped(): number {
    return this.refused;
  }

  /** Holds the item for the next write; false when it was dropped because maxBacklog items are held. */
  add(item: T): boolean {
    if (this.pending.length >= this.maxBacklog) {
      this.refused++;
      return false;
    }
    this.pending.push(item);
    if (this.pending.length >= this.maxHeld && !this.writing && !this.failing) this.flush().catch(this.onError);
    else this.arm();
    return true;
  }

  /** Resolves once everything added before the call is stored; rejects if a write fails (its items stay queued). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (!this.pending.length) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.write(batch).then(
      () => {
        this.writing = null;
        this.failing = false;
      },
      (error: unknown) => {
        this.writing = null;
        this.failing = true;
        this.pending = [...batch, ...this.pending];
        this.arm();
        throw error;
      },
    );
    await this.writing;
  }

  private arm(): void {
    // unref: a timer alone never keeps the process (or a test run) alive; shutdown flushes explicitly.
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush().catch(this.onError);
    }, this.intervalMs).unref();
  }
}
