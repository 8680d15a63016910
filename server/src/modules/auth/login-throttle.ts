import { Inject, Injectable } from '@nestjs/common';
import { RateLimit, RateLimits, tooMany } from '../../common/rate-limit';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again in {minutes} minutes.';
/** The longest pause the account-wide delay grows to. */
export const LOGIN_DELAY_MAX_SECONDS = 300;

/**
 * Failed sign-ins, counted so that guessing stays slow while a stranger cannot lock the owner out
 * (OWASP ASVS 5.0 V6 anti-automation):
 * - one address that fails on one account is refused there for the window after `loginFailuresPerAccount` failures;
 * - one address that fails on many accounts is refused everywhere after `loginFailuresPerIp`;
 * - an account that fails from many addresses is not locked: each failure past `loginFailuresPerAccount` makes
 *   the addresses that failed on it wait longer (1 s, 2 s, 4 s … up to 5 minutes), while an address that has not
 *   failed on it may still sign in with the right password.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAddress: RateLimit;
  private readonly perAccountAndAddress: RateLimit;
  private readonly perAccount: RateLimit;
  private readonly accountDelay: RateLimit;
  private readonly accountLimit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, limits: RateLimits) {
    const { windowSeconds, loginFailuresPerIp, loginFailuresPerAccount } = config.throttle;
    this.accountLimit = loginFailuresPerAccount;
    this.perAddress = limits.create({ name: 'login-ip', limit: loginFailuresPerIp, windowSeconds });
    this.perAccountAndAddress = limits.create({ name: 'login-account-ip', limit: loginFailuresPerAccount, windowSeconds });
    this.perAccount = limits.create({ name: 'login-account', limit: Number.MAX_SAFE_INTEGER, windowSeconds });
    this.accountDelay = limits.create({ name: 'login-account-delay', limit: 1, windowSeconds });
  }

  /** Throws 429 (Retry-After) when this address may not try this account now. */
  async assertMayTry(account: string, ip: string): Promise<void> {
    const pair = pairKey(account, ip);
    await this.perAddress.assertUnder(ip, TOO_MANY_LOGINS);
    await this.perAccountAndAddress.assertUnder(pair, TOO_MANY_LOGINS);
    // The account-wide delay holds back only the addresses that have failed on this account.
    if ((await this.perAccountAndAddress.count(pair)) === 0) return;
    const wait = await this.accountDelay.waitFor(account);
    if (wait > 0) throw tooMany(TOO_MANY_LOGINS, wait);
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const [, , failures] = await Promise.all([
      this.perAddress.hit(ip),
      this.perAccountAndAddress.hit(pairKey(account, ip)),
      this.perAccount.hit(account),
    ]);
    if (failures >= this.accountLimit) await this.accountDelay.pause(account, accountDelaySeconds(failures - this.accountLimit));
  }

  /** The owner got in from here: this address starts afresh on this account (the account's own count stays). */
  async recordSuccess(account: string, ip: string): Promise<void> {
    await this.perAccountAndAddress.reset(pairKey(account, ip));
  }
}

const pairKey = (account: string, ip: string) => `${account}|${ip}`;

/** 1 s after the failure that reaches the limit, doubling with each one after it, at most LOGIN_DELAY_MAX_SECONDS. */
export const accountDelaySeconds = (failuresPastLimit: number) => Math.min(2 ** Math.min(failuresPastLimit, 20), LOGIN_DELAY_MAX_SECONDS);
