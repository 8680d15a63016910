import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiError } from '../../common/api-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The sync API's credential: LICENSE_SERVER_SYNC_TOKEN, sent by the other portal as a bearer token (its
 * license_server.api_token setting). Without the variable this portal accepts no sync at all.
 */
@Injectable()
export class SyncTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.licensing.syncApiToken ? digest(config.licensing.syncApiToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    const [scheme, token] = (context.switchToHttp().getRequest<Request>().headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw ApiError.unauthorized('Sync token required');
    if (!this.expected) throw ApiError.forbidden('This portal does not accept license-server sync: LICENSE_SERVER_SYNC_TOKEN is not set');
    // Compared as digests, in constant time, so neither the token nor its length leaks through timing.
    if (!timingSafeEqual(digest(token), this.expected)) throw ApiError.unauthorized('Invalid sync token');
    return true;
  }
}
