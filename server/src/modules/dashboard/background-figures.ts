/** What a computation read, cheaply told apart (e.g. the tables' highest ids): unchanged means no new rows. */
export type Fingerprint = () => Promise<string>;

interface Kept<T> {
  value: T;
  at: number;
  costMs: number;
  /** Computed for a request (not warmed at boot). */
  asked: boolean;
  print?: string;
}

/**
 * Figures that aggregate millions of rows (dashboard statistics, charts, the database's size), kept per key:
 * - fresh for `freshMs` after a computation for a request started: answered from memory;
 * - older, when computing them costs more than `budgetMs` (a large database): the kept figures are answered at
 *   once and new ones are computed off the request's path (stale while revalidate), so no request waits seconds;
 * - otherwise (cheap to compute, or none kept) computed for the request, as fresh as can be.
 * `warm` computes at boot, off any request: such figures stand in for expensive ones only while the fingerprint
 * says nothing was added since (they are never counted fresh). Concurrent computations of a key are shared; a
 * failure keeps what was there.
 */
export class BackgroundFigures<T> {
  private readonly kept = new Map<string, Kept<T>>();
  private readonly running = new Map<string, Promise<T>>();

  constructor(
    private readonly freshMs: number,
    private readonly budgetMs: number,
    /** Keys kept at most (the oldest go first). */
    private readonly size = 16,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, compute: () => Promise<T>, fingerprint?: Fingerprint): Promise<T> {
    const kept = this.kept.get(key);
    if (kept?.asked && this.now() - kept.at < this.freshMs) return kept.value;
    if (kept && kept.costMs > this.budgetMs && (kept.asked || (fingerprint && (await fingerprint()) === kept.print))) {
      this.refresh(key, compute, true, fingerprint).catch(() => undefined);
      return kept.value;
    }
    return this.refresh(key, compute, true, fingerprint);
  }

  /** Computes the key's figures in the background, to stand in for expensive ones until a request asks. */
  warm(key: string, compute: () => Promise<T>, fingerprint: Fingerprint): void {
    if (!this.kept.has(key)) this.refresh(key, compute, false, fingerprint).catch(() => undefined);
  }

  private refresh(key: string, compute: () => Promise<T>, asked: boolean, fingerprint?: Fingerprint): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const at = this.now();
    const computation = (async () => {
      const print = fingerprint ? await fingerprint() : undefined;
      const value = await compute();
      this.kept.delete(key);
      this.kept.set(key, { value, at, costMs: this.now() - at, asked, print });
      if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value!);
      return value;
    })().finally(() => this.running.delete(key));
    this.running.set(key, computation);
    return computation;
  }
}
