import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { AppConfig, HOST_NAME } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export interface SignedLink {
  fileId: number;
  userId: number;
  /** Unix seconds. */
  expires: number;
  signature: string;
}

export type LinkCheck = { ok: true; link: SignedLink } | { ok: false; reason: 'invalid' | 'expired' };

/** Where a request arrived, as Express sees it (`request.protocol`, `request.host`; proxy headers count under TRUST_PROXY). */
export interface RequestOrigin {
  protocol: string;
  host: string | undefined;
}

const DIGITS = /^\d{1,15}$/;

/**
 * Short-lived download links for curl and package managers: an HMAC-SHA256 over file id, user id and expiry
 * with a server-side key, compared in constant time. Changing any part (another file, a later expiry, another
 * signature) breaks the signature.
 */
@Injectable()
export class DownloadLinksService {
  /** Milliseconds since the epoch; replaceable in tests to move time. */
  clock: () => number = () => Date.now();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * A link valid for the configured time; with `stepSeconds`, its expiry is rounded up to a multiple of it, so
   * every link to the file for the user within one step is the same (an answer carrying it keeps its ETag).
   */
  sign(fileId: number, userId: number, stepSeconds = 1): SignedLink {
    const earliest = Math.floor(this.clock() / 1000) + this.config.downloads.linkTtlSeconds;
    const expires = Math.ceil(earliest / stepSeconds) * stepSeconds;
    return { fileId, userId, expires, signature: this.mac(fileId, userId, expires).toString('base64url') };
  }

  /** Checks the parts as they came in the URL. */
  verify(fileId: number, user: unknown, expires: unknown, signature: unknown): LinkCheck {
    if (typeof user !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return { ok: false, reason: 'invalid' };
    if (!DIGITS.test(user) || !DIGITS.test(expires) || !/^[\w-]{43}$/.test(signature)) return { ok: false, reason: 'invalid' };
    const expected = this.mac(fileId, Number(user), Number(expires));
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    if (Number(expires) * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, link: { fileId, userId: Number(user), expires: Number(expires), signature } };
  }

  /** The absolute URL of a signed link on `baseUrl`. */
  url(link: SignedLink, baseUrl: string): string {
    const query = new URLSearchParams({ expires: String(link.expires), user: String(link.userId), signature: link.signature });
    return `${baseUrl}/api/download/${link.fileId}/signed?${query.toString()}`;
  }

  /**
   * Where links point: PUBLIC_URL when it is set; else the origin the request came to, if its host is one of
   * ALLOWED_HOSTS (400 otherwise, so a forged Host never gets a signed link). Without either (development
   * only), a Host that is not a plain host[:port] falls back to http://localhost.
   */
  baseUrl({ protocol, host }: RequestOrigin): string {
    if (this.config.publicUrlSet) return this.config.publicUrl;
    const plain = (protocol === 'http' || protocol === 'https') && host !== undefined && HOST_NAME.test(host);
    const allowed = this.config.allowedHosts;
    if (allowed === null) return plain ? `${protocol}://${host}` : this.config.publicUrl;
    if (!plain || !allowed.includes(host.toLowerCase()))
      throw ApiError.badRequest('This host is not one the portal serves (ALLOWED_HOSTS), so no link is made for it');
    return `${protocol}://${host}`;
  }

  private mac(fileId: number, userId: number, expires: number): Buffer {
    return createHmac('sha256', this.config.downloads.linkSecret).update(`download-link:v1:${fileId}:${userId}:${expires}`).digest();
  }
}
