import { Injectable, OnModuleInit } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { AUDIT } from '../../common/audit.decorator';
import { BeforeExpress, refuseBeforeExpress } from '../../common/before-express';
import type { AuthUser } from '../../common/current-user.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { setApiResponseHeaders } from '../../common/security-headers';
import { SessionsService } from '../auth/sessions.service';
import type { DownloadableFile } from '../distribution-files/distribution-files.service';
import { DrainState } from '../health/drain-state.service';
import { AccessLogService } from '../access-log/access-log.service';
import { ReleaseCoverageService } from '../licenses/release-coverage.service';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';

/** `/api/download/<id>` with the id written the one way ParseIdPipe accepts (larger ids go the long way and get its 400). */
const DOWNLOAD_PATH = /^\/api\/download\/([1-9]\d{0,8})$/;
/** The route Nest's router would have matched, for the access log and the exception filter. */
const ROUTE = '/api/download/:id';

/**
 * GET/HEAD /api/download/:id with a live session, served on Node's own request and response before Express: the
 * downloads streaming servers' installers make all day, where Express's objects and router cost a small download
 * a noticeable share of its CPU (bench:downloads; see BeforeExpress). The same checks run (the session as AuthGuard
 * resolves it, the file row), then the same sending, and what Express would add is done the same way: the headers
 * of every API response, `Connection: close` while draining, the access-log row (with the user and the client's
 * address by the app's 'trust proxy'), a failure handled by the global exception filter. Every other case (no or
 * bad token, unknown file, another spelling, a query string, a failure before the session and the file are known)
 * goes on untouched (`next`: to Express), where the controller responds to it exactly as before.
 */
@Injectable()
export class DownloadFastPath implements OnModuleInit {
  constructor(
    private readonly sessions: SessionsService,
    private readonly downloads: DownloadsService,
    private readonly reflector: Reflector,
    private readonly drain: DrainState,
    private readonly accessLog: AccessLogService,
    private readonly coverage: ReleaseCoverageService,
  ) {}

  /**
   * This path admits what AuthGuard admits on the route as it is declared today: any signed-in user, with nothing
   * else run on it (no audit, guard, interceptor or pipe of its own). Should the route's declaration change, the
   * portal refuses to start rather than let this path disagree.
   */
  onModuleInit(): void {
    const targets = [DownloadsController.prototype.downloadFile, DownloadsController];
    const declared = [REQUIRED_ROLE, IS_PUBLIC, AUDIT, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA].filter(
      (key) => this.reflector.getAllAndOverride<unknown>(key, targets) !== undefined,
    );
    if (declared.length)
      throw new Error(
        `GET /api/download/:id no longer declares "any signed-in user" alone (${declared.join(', ')}): ` +
          'update DownloadFastPath to admit what its route admits',
      );
  }

  /** The HTTP server's request listener: this path's calls served here, every other request handed on. */
  listener(setting: BeforeExpress): RequestListener {
    const trust = setting.express.get('trust proxy fn') as (address: string, hop: number) => boolean;
    return (request: IncomingMessage, response: ServerResponse) => {
      const match = request.method === 'GET' || request.method === 'HEAD' ? DOWNLOAD_PATH.exec(request.url ?? '') : null;
      const [scheme, token] = (request.headers.authorization ?? '').split(' ');
      if (!match || scheme?.toLowerCase() !== 'bearer' || !token) return setting.next(request, response);
      void this.serve(setting, trust, Number(match[1]), token, request, response);
    };
  }

  private async serve(
    setting: BeforeExpress,
    trust: (address: string, hop: number) => boolean,
    id: number,
    token: string,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const started = performance.now();
    let user: AuthUser | null;
    let file: DownloadableFile | null;
    let open = false;
    try {
      user = await this.sessions.resolve(token);
      file = user && (await this.downloads.findKnown(id));
      open = !!file && file.version_state === 'published' && (await this.coverage.openToAll(file.version_channel));
    } catch {
      // The controller responds to (and reports) it as it always has.
      return setting.next(request, response);
    }
    // A file of a version that is not published, or that a customer's licenses must allow, is refused (or admitted)
    // by the controller.
    if (!user || !file || !open) return setting.next(request, response);
    const ip = proxyaddr(request, trust);
    this.accessLog.track(request, response, request.url!, ip, () => ROUTE, { user, started });
    setApiResponseHeaders(response);
    this.drain.closeIfDraining(response);
    try {
      await this.downloads.send(file, { userId: user.id, email: user.email, via: 'session', ip }, request, response);
    } catch (error) {
      refuseBeforeExpress(setting, request, response, error, { route: ROUTE, user });
    }
  }
}
