import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { toString as qrSvg } from 'qrcode';
import { ApiError } from '../../common/api-error';
import { RateLimit, RateLimits } from '../../common/rate-limit';
import { SecretBox } from '../../common/secret-box';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Transactions } from '../../database/transactions';
import { PasswordHasher, UsersService } from '../users/users.service';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { SessionsService } from './sessions.service';
import { UserMfaEntity } from './user-mfa.entity';
import { UserMfaRepository } from './user-mfa.repository';

/** What the authenticator app is told: the issuer it lists the account under. */
export const MFA_ISSUER = 'StreamHub Portal';
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is taken too (clocks drift). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
// 32 letters and digits without look-alikes (i/l/o/u); 10 of them are 50 bits.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstvwxyz0123456789';

export const WRONG_CODE = 'Invalid authentication code.';
const TOO_MANY_CODES = 'Too many wrong codes. Please try again in {minutes} minutes.';
export const MFA_ALREADY_ON = 'Two-factor sign-in is already on. Turn it off first to set up another authenticator.';
const NO_PENDING_SETUP = 'Start the two-factor set-up first.';
const NOT_ENABLED = 'Two-factor sign-in is not turned on.';
export const WRONG_PASSWORD = 'Current password is incorrect.';

export type MfaMethod = 'code' | 'recovery_code';

/** A second factor as the caller sends it: a code from the app, or one of the recovery codes. */
export interface MfaProof {
  code?: string;
  recovery_code?: string;
}

export interface MfaSetup {
  /** The secret in base32, for typing into the app; shown once, at set-up. */
  secret: string;
  otpauth_url: string;
  /** The otpauth URL as a QR code: an SVG image in a data: URL. */
  qr_code: string;
}

export interface MfaStatus {
  enabled: boolean;
  enabled_at: Date | null;
  recovery_codes_left: number;
}

const hashCode = (code: string) => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * TOTP (RFC 6238). A code is taken once: its step is stored, and a code of that step or an earlier one is refused. Wrong codes
 * are counted per account and per client address (THROTTLE_LOGIN_FAILURES_PER_ACCOUNT / _PER_IP).
 */
@Injectable()
export class MfaService {
  private readonly box: SecretBox;
  private readonly failuresPerAccount: RateLimit;
  private readonly failuresPerIp: RateLimit;

  constructor(
    private readonly authenticators: UserMfaRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
    private readonly transactions: Transactions,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    limits: RateLimits,
  ) {
    this.box = new SecretBox(config.mfa.encryptionKey);
    const { windowSeconds, loginFailuresPerAccount, loginFailuresPerIp } = config.throttle;
    this.failuresPerAccount = limits.create({ name: 'mfa-account', limit: loginFailuresPerAccount, windowSeconds });
    this.failuresPerIp = limits.create({ name: 'mfa-ip', limit: loginFailuresPerIp, windowSeconds });
  }

  get required(): boolean {
    return this.config.mfa.required;
  }

  async status(userId: number): Promise<MfaStatus> {
    const authenticator = await this.authenticators.find(userId);
    const enabled = !!authenticator?.enabled_at;
    return {
      enabled,
      enabled_at: authenticator?.enabled_at ?? null,
      recovery_codes_left: enabled ? await this.recoveryCodes.countUnused(userId) : 0,
    };
  }

  async isEnabled(userId: number): Promise<boolean> {
    return !!(await this.authenticators.find(userId))?.enabled_at;
  }

  /** The password is asked so a stolen session alone cannot enrol the thief's authenticator; a wrong one counts like a wrong code. */
  async beginEnrolmentWithPassword(user: { id: number; email: string }, password: string, ip: string): Promise<MfaSetup> {
    await this.checkPassword(user.id, password, ip);
    return this.beginEnrolment(user);
  }

  /** A fresh secret, pending until confirmed by a first code; replaces a pending one, never an enabled one. */
  async beginEnrolment(user: { id: number; email: string }): Promise<MfaSetup> {
    if (await this.isEnabled(user.id)) throw ApiError.conflict(MFA_ALREADY_ON);
    const secret = new Secret({ size: 20 });
    await this.authenticators.savePending(user.id, this.box.seal(secret.base32));
    const url = totpFor(secret, user.email).toString();
    const svg = await qrSvg(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret: secret.base32, otpauth_url: url, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Every other session ends (they began without a second factor); `keepSession` (null at the sign-in) lives on as one that passed. */
  async completeEnrolment(user: { id: number; email: string }, code: string, ip: string, keepSession: string | null): Promise<string[]> {
    await this.assertMayTry(user.id, ip);
    const pending = await this.authenticators.find(user.id);
    if (pending?.enabled_at) throw ApiError.conflict(MFA_ALREADY_ON);
    if (!pending) throw ApiError.conflict(NO_PENDING_SETUP);
    const step = this.stepOf(pending, user.email, code);
    if (step === null) throw await this.failure(user.id, ip, HttpStatus.BAD_REQUEST);
    const codes = newRecoveryCodes();
    await this.transactions.run(async (transaction) => {
      // Only while still pending: two confirmations racing turn it on once.
      if (!(await this.authenticators.enable(transaction, user.id, step))) throw ApiError.conflict(MFA_ALREADY_ON);
      await this.recoveryCodes.replace(transaction, user.id, codes.map(hashCode));
      const tokenVersion = await this.users.raiseTokenVersion(transaction, user.id);
      await this.sessions.keepOnly(transaction, user.id, keepSession, tokenVersion, true);
    });
    await this.failuresPerAccount.reset(String(user.id));
    return codes;
  }

  /** A wrong, replayed or spent factor counts as a failure and throws `status` (401 at the sign-in, 400 for a signed-in admin). */
  async verify(user: { id: number; email: string }, proof: MfaProof, ip: string, status = HttpStatus.UNAUTHORIZED): Promise<MfaMethod> {
    await this.assertMayTry(user.id, ip);
    const authenticator = await this.authenticators.find(user.id);
    if (!authenticator?.enabled_at) throw ApiError.conflict(NOT_ENABLED);
    const method = await this.spend(authenticator, user.email, proof);
    if (!method) throw await this.failure(user.id, ip, status);
    await this.failuresPerAccount.reset(String(user.id));
    return method;
  }

  /** Turns two-factor sign-in off, with the account's password and a second factor (400 naming the wrong one). */
  async disable(user: { id: number; email: string }, password: string, proof: MfaProof, ip: string): Promise<void> {
    await this.checkPassword(user.id, password, ip);
    await this.verify(user, proof, ip, HttpStatus.BAD_REQUEST);
    await this.transactions.run(async (transaction) => {
      await this.recoveryCodes.deleteAll(transaction, user.id);
      await this.authenticators.delete(transaction, user.id);
    });
  }

  async regenerateRecoveryCodes(user: { id: number; email: string }, proof: MfaProof, ip: string): Promise<string[]> {
    await this.verify(user, proof, ip, HttpStatus.BAD_REQUEST);
    const codes = newRecoveryCodes();
    await this.transactions.run((transaction) => this.recoveryCodes.replace(transaction, user.id, codes.map(hashCode)));
    return codes;
  }

  /** 400 on `password` when it is not the account's, counted with the wrong codes; 429 past their limit. */
  private async checkPassword(userId: number, password: string, ip: string): Promise<void> {
    await this.assertMayTry(userId, ip);
    const account = await this.users.get(userId);
    if (await this.hasher.verify(account.password_hash, password)) return;
    await this.recordFailure(userId, ip);
    throw ApiError.badRequest(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
  }

  /** Counts a failure that is not a code (a wrong password where a password and a code are asked for). */
  async recordFailure(userId: number, ip: string): Promise<void> {
    await Promise.all([this.failuresPerAccount.hit(String(userId)), this.failuresPerIp.hit(ip)]);
  }

  async assertMayTry(userId: number, ip: string): Promise<void> {
    await this.failuresPerIp.assertUnder(ip, TOO_MANY_CODES);
    await this.failuresPerAccount.assertUnder(String(userId), TOO_MANY_CODES);
  }

  private async spend(authenticator: UserMfaEntity, email: string, proof: MfaProof): Promise<MfaMethod | null> {
    if (proof.code) {
      const step = this.stepOf(authenticator, email, proof.code);
      if (step === null) return null;
      // Only a step after the last one taken: the same code (or an older one) is not accepted twice.
      return (await this.authenticators.takeStep(authenticator.user_id, step)) ? 'code' : null;
    }
    if (proof.recovery_code) {
      return (await this.recoveryCodes.spend(authenticator.user_id, hashCode(proof.recovery_code))) ? 'recovery_code' : null;
    }
    return null;
  }

  /** The time step a code belongs to, or null when it is none of the steps in the window. */
  private stepOf(authenticator: UserMfaEntity, email: string, code: string): number | null {
    const plain = this.box.open(authenticator.secret);
    const token = code.replace(/\s/g, '');
    if (!plain || !/^\d{6}$/.test(token)) return null;
    const totp = totpFor(Secret.fromBase32(plain), email);
    const timestamp = Date.now();
    const delta = totp.validate({ token, timestamp, window: WINDOW });
    return delta === null ? null : totp.counter({ timestamp }) + delta;
  }

  private async failure(userId: number, ip: string, status: HttpStatus): Promise<ApiError> {
    await this.recordFailure(userId, ip);
    return status === HttpStatus.UNAUTHORIZED ? ApiError.unauthorized(WRONG_CODE) : ApiError.badRequest(WRONG_CODE, { code: [WRONG_CODE] });
  }
}

function totpFor(secret: Secret, email: string): TOTP {
  return new TOTP({ issuer: MFA_ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret });
}

/** Ten codes like `k7m2p-x9qrt`: 50 random bits each. */
function newRecoveryCodes(): string[] {
  const code = () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const plain = code();
    return `${plain.slice(0, 5)}-${plain.slice(5)}`;
  });
}
