import { Injectable, NestMiddleware, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../../common/current-user.decorator';
import { SessionsService } from '../auth/sessions.service';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

/** `/api/download/<id>` with the id written the one way ParseIdPipe accepts (larger ids go the long way and get its 400). */
const DOWNLOAD_PATH = /^\/api\/download\/([1-9]\d{0,8})$/;
/** What the access log records as the route, as Nest's router would have set it. */
const ROUTE = { path: '/api/download/:id' };

/**
 * GET/HEAD /api/download/:id with a live session, answered before Nest's router: the guard, interceptor and
 * parameter machinery cost several times a bare file server's work per request, which for a 32 KB file is most
 * of it. The same checks run (the session as AuthGuard resolves it, the file row), then the same sending; every
 * other case (no or bad token, unknown file, a failure before the first byte) falls through to the controller,
 * which answers it exactly as before (status and message). Security headers and the access log apply already.
 */
@Injectable()
export class DownloadFastPath implements NestMiddleware, OnModuleInit {
  constructor(
    private readonly sessions: SessionsService,
    private readonly downloads: DownloadsService,
    private readonly reflector: Reflector,
  ) {}

  /**
   * This path admits what AuthGuard admits on the route as it is declared today: any signed-in user. Should the
   * route's declaration change (a role, or public), the portal refuses to start rather than let this path disagree.
   */
  onModuleInit(): void {
    const targets = [DownloadsController.prototype.downloadFile, DownloadsController];
    const role = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_ROLE, targets);
    const open = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets);
    if (role || open)
      throw new Error('GET /api/download/:id no longer declares "any signed-in user": update DownloadFastPath to admit what its route admits');
  }

  use(request: Request, response: Response, next: NextFunction): void {
    const match = request.method === 'GET' || request.method === 'HEAD' ? DOWNLOAD_PATH.exec(request.originalUrl) : null;
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (!match || scheme?.toLowerCase() !== 'bearer' || !token) return next();
    void this.serve(Number(match[1]), token, request as AuthenticatedRequest, response, next);
  }

  private async serve(id: number, token: string, request: AuthenticatedRequest, response: Response, next: NextFunction): Promise<void> {
    let started = false;
    try {
      const user = await this.sessions.resolve(token);
      const file = user && (await this.downloads.findKnown(id));
      if (!user || !file) return next();
      request.user = user;
      Object.assign(request, { route: ROUTE });
      await this.downloads.send(file, { userId: user.id, email: user.email, via: 'session' }, request, response, () => (started = true));
    } catch (error) {
      // Before anything was counted or sent, the controller answers (and reports) it as it always has.
      if (!started && !response.headersSent) return next();
      next(error);
    }
  }
}
