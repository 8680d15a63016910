/**
 * Group commit: items added by concurrent requests are written together, one write at a time; each caller's
 * promise settles only once the write that holds its item has finished (so a response never outruns its record).
 * Under light load every item is written at once on its own; under heavy load batches grow by themselves.
 */
export class GroupCommit<T> {
  private queue: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 1000,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything added so far is written (for shutdown). */
  async drain(): Promise<void> {
    while (this.queue.length || this.writing) {
      if (this.writing) await this.writing;
      else await this.flush();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    // After the current I/O callbacks, so requests that arrived together share one write.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.writing || !this.queue.length) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.writing = this.write(batch.map((entry) => entry.item)).then(
      () => batch.forEach((entry) => entry.resolve()),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
    await this.writing;
    this.writing = null;
    if (this.queue.length) this.schedule();
  }
}
