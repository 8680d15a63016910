import { RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { TooManyAttemptsError } from './api-error';

export interface RateLimitRule {
  /** Names the counter in its store, so two rules never share keys. */
  name: string;
  /** How many hits a key may have in one window. */
  limit: number;
  windowSeconds: number;
}

/**
 * A counter per key (an address, an account, a license key) over a fixed window, kept by rate-limiter-flexible.
 * The store is behind this one class, so a shared store (Redis) for several instances changes nothing for callers.
 */
export class RateLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(readonly rule: RateLimitRule) {
    this.limiter = new RateLimiterMemory({ keyPrefix: rule.name, points: rule.limit, duration: rule.windowSeconds });
  }

  /** Counts one hit, or throws 429 (Retry-After) when the key has used its limit in this window. */
  async take(key: string, message: string): Promise<void> {
    const used = await this.limiter.penalty(key);
    if (used.consumedPoints > this.rule.limit) throw tooMany(message, used.msBeforeNext);
  }

  /** Counts one hit without refusing it; returns the hits in this window, this one included. */
  async hit(key: string): Promise<number> {
    return (await this.limiter.penalty(key)).consumedPoints;
  }

  /** Hits so far in this window (0 when none). */
  async count(key: string): Promise<number> {
    return (await this.limiter.get(key))?.consumedPoints ?? 0;
  }

  /** Throws 429 when the key has used its limit, without counting this call. */
  async assertUnder(key: string, message: string): Promise<void> {
    const used = await this.limiter.get(key);
    if (used && used.consumedPoints >= this.rule.limit) throw tooMany(message, used.msBeforeNext);
  }

  /** Refuses the key for `seconds` from now (replacing any pause it had). */
  async pause(key: string, seconds: number): Promise<void> {
    await this.limiter.block(key, seconds);
  }

  /** Milliseconds until the key is allowed again: 0 when it is under its limit. */
  async waitFor(key: string): Promise<number> {
    const used = await this.limiter.get(key);
    return used && used.consumedPoints >= this.rule.limit ? Math.max(used.msBeforeNext, 0) : 0;
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

/**
 * The 429 for a wait of `ms`: `{minutes}` in the message becomes the whole minutes to wait (at least one), with
 * 'minute' in the singular, and Retry-After carries the seconds.
 */
export function tooMany(message: string, ms: number): TooManyAttemptsError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  const text = message
    .replace('{minutes} minutes', minutes === 1 ? '1 minute' : `${minutes} minutes`)
    .replace('{minutes}', String(minutes));
  return new TooManyAttemptsError(text, seconds);
}
