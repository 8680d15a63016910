import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TooManyAttemptsError } from './api-error';

export interface RateLimitRule {
  /** Names the counter in its store, so two rules never share keys. */
  name: string;
  /** How many hits a key may have in one window. */
  limit: number;
  windowSeconds: number;
}

/** A fixed-window counter per key, in the store RateLimits chose (this process's memory, or Redis shared by every instance). */
export class RateLimit {
  constructor(
    readonly rule: RateLimitRule,
    private readonly limiter: RateLimiterAbstract,
  ) {}

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

/** `{minutes}` becomes the whole minutes to wait (at least one, singular for one); Retry-After carries the seconds. */
export function tooMany(message: string, ms: number): TooManyAttemptsError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  const text = message
    .replace('{minutes} minutes', minutes === 1 ? '1 minute' : `${minutes} minutes`)
    .replace('{minutes}', String(minutes));
  return new TooManyAttemptsError(text, seconds);
}

/**
 * With REDIS_URL, instances behind a balancer limit as one. Should Redis stop responding, each keeps counting in its own memory
 * (rate-limiter-flexible's insurance limiter) rather than letting everything through or refusing everyone.
 */
@Injectable()
export class RateLimits implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly redis: Redis | null;
  private readonly prefix: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const url = config.throttle.redisUrl;
    this.prefix = config.throttle.redisKeyPrefix;
    // No offline queue: a call while Redis is away fails at once and the insurance limiter decides instead.
    this.redis = url ? new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 }) : null;
    // Said once when Redis goes away and once when it is back, not at every reconnect attempt.
    let down = false;
    this.redis?.on('error', (error: Error) => {
      if (!down) this.logger.warn(`Redis for rate limits is not responding (${error.message}); counting in memory until it is back`);
      down = true;
    });
    this.redis?.on('ready', () => {
      if (down) this.logger.log('Redis for rate limits is back');
      down = false;
    });
  }

  /** Whether counters are shared through Redis. */
  get shared(): boolean {
    return this.redis !== null;
  }

  create(rule: RateLimitRule): RateLimit {
    const options = { keyPrefix: rule.name, points: rule.limit, duration: rule.windowSeconds };
    const memory = new RateLimiterMemory(options);
    if (!this.redis) return new RateLimit(rule, memory);
    return new RateLimit(
      rule,
      new RateLimiterRedis({ ...options, keyPrefix: `${this.prefix}:${rule.name}`, storeClient: this.redis, insuranceLimiter: memory }),
    );
  }

  /** Waits until Redis responds (the insurance limiter covers the moments before); for tests and start-up checks. */
  async ready(): Promise<void> {
    if (this.redis && this.redis.status !== 'ready') await new Promise((resolve) => this.redis!.once('ready', resolve));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis?.status === 'ready') await this.redis.quit().catch(() => undefined);
    else this.redis?.disconnect();
  }
}

/** RateLimits for every module. */
@Global()
@Module({ providers: [RateLimits], exports: [RateLimits] })
export class RateLimitsModule {}
