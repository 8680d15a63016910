import { RecentValues } from './recent-values';

/**
 * Reads of tables this instance writes, kept by key for `freshMs`: asked again within that time, a read is answered
 * from memory, and concurrent askers of a key share one read. The table's owner calls `clear()` on each of its
 * writes, so this instance's changes show at once (a read that began before the write is neither kept nor shared
 * after it); another instance's show within `freshMs`. The values are shared: callers must not change them.
 */
export class KeptReads<V> {
  private readonly kept: RecentValues<V>;
  private readonly running = new Map<string, Promise<V>>();
  /** Bumped by clear(), so a read that began before a write is not kept after it. */
  private generation = 0;

  constructor(
    private readonly freshMs: number,
    size: number,
  ) {
    this.kept = new RecentValues(size);
  }

  get(key: string, read: () => Promise<V>): Promise<V> {
    const kept = this.kept.get(key, this.freshMs);
    if (kept !== undefined) return Promise.resolve(kept);
    const running = this.running.get(key);
    if (running) return running;
    const generation = this.generation;
    const reading = read().then(
      (value) => {
        if (generation === this.generation) {
          this.kept.set(key, value);
          this.running.delete(key);
        }
        return value;
      },
      (error: unknown) => {
        if (generation === this.generation) this.running.delete(key);
        throw error;
      },
    );
    this.running.set(key, reading);
    return reading;
  }

  clear(): void {
    this.kept.clear();
    this.running.clear();
    this.generation++;
  }
}
