import { TooManyAttemptsError } from '../../common/api-error';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Counts attempts per key (an IP, an account) in a fixed window and refuses once a key reaches
 * its limit. Kept in memory: one instance per process; several instances would share a store.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 (with Retry-After) when any key has used up its limit. */
  assertAllowed(limits: Array<[key: string, max: number]>, message: string): void {
    const now = this.now();
    for (const [key, max] of limits) {
      const window = this.windows.get(key);
      if (window && window.resetAt > now && window.count >= max) {
        const seconds = Math.ceil((window.resetAt - now) / 1000);
        throw new TooManyAttemptsError(message.replace('{minutes}', String(Math.ceil(seconds / 60))), seconds);
      }
    }
  }

  record(...keys: string[]): void {
    const now = this.now();
    if (this.windows.size > 50_000) this.sweep(now);
    for (const key of keys) {
      const window = this.windows.get(key);
      if (!window || window.resetAt <= now) this.windows.set(key, { count: 1, resetAt: now + this.windowSeconds * 1000 });
      else window.count += 1;
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
