/**
 * Values kept by key with the time they were set, at most `size` of them (the one set longest ago goes first): what
 * a list or search worked out, reused while it is fresh enough for its caller.
 */
export class RecentValues<V> {
  private readonly kept = new Map<string, { value: V; at: number }>();

  constructor(private readonly size: number) {}

  /** The value set for `key` less than `maxAgeMs` ago (by default: however long ago). */
  get(key: string, maxAgeMs = Infinity): V | undefined {
    const kept = this.kept.get(key);
    return kept && Date.now() - kept.at < maxAgeMs ? kept.value : undefined;
  }

  set(key: string, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, { value, at: Date.now() });
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value!);
  }

  delete(key: string): void {
    this.kept.delete(key);
  }

  clear(): void {
    this.kept.clear();
  }

  get count(): number {
    return this.kept.size;
  }
}
