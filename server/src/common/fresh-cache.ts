/**
 * Keeps computed figures for `freshMs`; calls for the same key while one computation runs share it. For figures
 * that aggregate millions of rows (dashboard statistics, charts), where every admin's refresh need not count anew.
 */
export class FreshCache<T> {
  private readonly kept = new Map<string, { value: T; at: number }>();
  private readonly running = new Map<string, Promise<T>>();

  constructor(
    private readonly freshMs: number,
    /** Keys kept at most (the oldest go first). */
    private readonly size = 16,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const kept = this.kept.get(key);
    if (kept && this.now() - kept.at < this.freshMs) return Promise.resolve(kept.value);
    const running = this.running.get(key);
    if (running) return running;
    const computation = compute()
      .then((value) => {
        this.kept.delete(key);
        this.kept.set(key, { value, at: this.now() });
        if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value!);
        return value;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, computation);
    return computation;
  }
}
