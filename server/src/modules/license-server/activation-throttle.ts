import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { RateLimit, RateLimits } from '../../common/rate-limit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RemoteLogsService } from '../logs/remote-logs.service';

const TOO_MANY_CALLS = 'Too many license requests. Please try again in {minutes} minutes.';
/** How often the counts of refused calls become a log entry. */
const TALLY_SECONDS = 60;

export type RefusedCall = 'NOT_FOUND' | 'RATE_LIMITED';

/**
 * Rate limits of the activation API: generous per address and per license key for real heartbeats, tight for
 * addresses that send unknown keys (key guessing). Refused and NOT_FOUND calls are counted, not logged one by one:
 * a summary entry per kind and minute goes to the remote log, so a flood cannot fill the database.
 */
@Injectable()
export class ActivationThrottle implements OnModuleDestroy {
  private readonly perAddress: RateLimit;
  private readonly perKey: RateLimit;
  private readonly unknownKeysPerAddress: RateLimit;
  private readonly tally = new Map<RefusedCall, Map<string, number>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly remoteLogs: RemoteLogsService,
    @Inject(APP_CONFIG) config: AppConfig,
    limits: RateLimits,
  ) {
    const { activationCallsPerIpPerMinute, activationCallsPerKeyPerMinute, activationUnknownKeysPerIp, windowSeconds } = config.throttle;
    this.perAddress = limits.create({ name: 'activation-ip', limit: activationCallsPerIpPerMinute, windowSeconds: 60 });
    this.perKey = limits.create({ name: 'activation-key', limit: activationCallsPerKeyPerMinute, windowSeconds: 60 });
    this.unknownKeysPerAddress = limits.create({ name: 'activation-unknown-key', limit: activationUnknownKeysPerIp, windowSeconds });
    this.timer = setInterval(() => this.flush(), TALLY_SECONDS * 1000).unref();
  }

  /** Counts the call against its address and key, or throws 429 (Retry-After) and counts it as refused. */
  async admit(ip: string, licenseKey: string): Promise<void> {
    try {
      // An address that guessed too many keys is refused whatever key it sends now, so the response tells it nothing.
      await this.unknownKeysPerAddress.assertUnder(ip, TOO_MANY_CALLS);
      await this.perAddress.take(ip, TOO_MANY_CALLS);
      await this.perKey.take(licenseKey, TOO_MANY_CALLS);
    } catch (error) {
      this.count('RATE_LIMITED', ip);
      throw error;
    }
  }

  /** A call named a key that does not exist: counted against its address, and in the tally instead of a log row. */
  async unknownKey(ip: string): Promise<void> {
    this.count('NOT_FOUND', ip);
    await this.unknownKeysPerAddress.hit(ip);
  }

  /** Queues one summary entry per kind of refused call counted since the last flush (the remote log writes it). */
  flush(): void {
    const entries = [...this.tally].map(([code, byAddress]) => summary(code, byAddress));
    this.tally.clear();
    for (const entry of entries) this.remoteLogs.record(entry);
  }

  // Before the remote log's own shutdown (beforeApplicationShutdown), which stores what this queues.
  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.flush();
  }

  private count(code: RefusedCall, ip: string): void {
    const byAddress = this.tally.get(code) ?? new Map<string, number>();
    this.tally.set(code, byAddress);
    // Bounded: past 10,000 addresses a minute, the rest are summed under one name.
    const address = byAddress.has(ip) || byAddress.size < 10_000 ? ip : 'other';
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
  }
}

function summary(code: RefusedCall, byAddress: Map<string, number>) {
  const total = [...byAddress.values()].reduce((sum, n) => sum + n, 0);
  const [topAddress, topCount] = [...byAddress].reduce((top, entry) => (entry[1] > top[1] ? entry : top));
  const what = code === 'NOT_FOUND' ? 'with unknown license keys' : 'refused by the rate limit';
  return {
    action: 'summary',
    level: 'warning',
    message: `${count(total, 'call')} ${what} (from ${count(byAddress.size, 'address', 'addresses')}; most from ${topAddress}: ${topCount})`,
    license_key: '',
    server_uid: '',
    hostname: null,
    product: null,
    version: null,
    valid: false,
    code,
    ip_address: topAddress,
    created_at: new Date(),
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
