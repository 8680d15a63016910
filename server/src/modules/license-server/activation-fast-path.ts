import { Injectable, NestMiddleware, OnModuleInit } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { AUDIT } from '../../common/audit.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { parseActivationRequest } from './activation-request';
import { LicenseServerController, sendSignedAnswer } from './license-server.controller';
import { LicenseServerAction, LicenseServerService } from './license-server.service';

/** The activation API's calls by their exact path (a query string or another spelling goes the long way). */
const ACTIONS = new Map<string, { action: LicenseServerAction; route: { path: string } }>(
  (['activate', 'validate', 'deactivate'] as const).map((action) => {
    const path = `/api/license-server/${action}`;
    return [path, { action, route: { path } }];
  }),
);

/** The handlers this path stands in for. */
const HANDLERS = [
  LicenseServerController.prototype.activateServer,
  LicenseServerController.prototype.validateServer,
  LicenseServerController.prototype.deactivateServer,
];

/**
 * POST /api/license-server/{activate,validate,deactivate}, answered before Nest's router: for the heartbeat that
 * streaming servers send all day, the router, guard, interceptor and parameter machinery cost more than the
 * call's own work. The same steps run as in LicenseServerController (the body checked by parseActivationRequest,
 * the service, the same bytes written); a refusal thrown here reaches the global exception filter as it would
 * from the controller. Security headers, body parsing and the access log have applied already.
 */
@Injectable()
export class ActivationFastPath implements NestMiddleware, OnModuleInit {
  constructor(
    private readonly server: LicenseServerService,
    private readonly reflector: Reflector,
  ) {}

  /**
   * The routes are public and nothing else runs on them (no role, audit, guard, interceptor or pipe of their own);
   * should that change, the portal refuses to start rather than let this path skip it.
   */
  onModuleInit(): void {
    for (const handler of HANDLERS) {
      const targets = [handler, LicenseServerController];
      const declared = [REQUIRED_ROLE, AUDIT, GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA].filter(
        (key) => this.reflector.getAllAndOverride<unknown>(key, targets) !== undefined,
      );
      if (!this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) || declared.length)
        throw new Error(
          `POST /api/license-server/* (${handler.name}) no longer declares a public route without guards, interceptors or pipes ` +
            `(${declared.join(', ') || 'not public'}): update ActivationFastPath to run what its route runs`,
        );
    }
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    const call = request.method === 'POST' ? ACTIONS.get(request.originalUrl) : undefined;
    if (!call) return next();
    // What the access log records as the route, as Nest's router would have set it.
    Object.assign(request, { route: call.route });
    const parsed = parseActivationRequest(request.body, call.action !== 'deactivate');
    const { body } = await this.server.handle(call.action, parsed, request.ip ?? null);
    sendSignedAnswer(response, body);
  }
}
