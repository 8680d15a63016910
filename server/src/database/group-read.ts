/**
 * Group read: lookups made by concurrent requests are sent to the database together, as one statement, instead of
 * one round trip each. Under light load every lookup goes at once on its own; under heavy load batches grow by
 * themselves while at most `maxInFlight` reads are on their way. Each caller gets the result of its own key.
 */
export class GroupRead<K, V> {
  private queue: Array<{ key: K; resolve: (value: V) => void; reject: (error: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Reads every key at once; returns one result per key, in the keys' order. */
    private readonly read: (keys: K[]) => Promise<V[]>,
    private readonly maxBatch = 64,
    private readonly maxInFlight = 2,
  ) {}

  load(key: K): Promise<V> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight) return;
    this.scheduled = true;
    // After the current I/O callbacks, so requests that arrived together share one read.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (!this.queue.length) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.inFlight += 1;
    if (this.queue.length) this.schedule();
    try {
      const values = await this.read(batch.map((entry) => entry.key));
      batch.forEach((entry, index) => entry.resolve(values[index]));
    } catch (error) {
      batch.forEach((entry) => entry.reject(error));
    } finally {
      this.inFlight -= 1;
      if (this.queue.length) this.schedule();
    }
  }
}
