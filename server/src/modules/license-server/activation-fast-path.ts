import { Injectable, OnModuleInit } from '@nestjs/common';
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

/** Parses a JSON body into request.body (the app's parser, with its limits); calls back with a refusal, if any. */
export type JsonBodyParser = (request: Request, response: Response, done: (error?: unknown) => void) => void;

/**
 * POST /api/license-server/{activate,validate,deactivate} with a JSON body, answered before the body parsers and
 * Nest's router (mounted in createApp right after the access log): for the heartbeat that streaming servers send
 * all day, the twenty router layers before the route, the guard, interceptor and parameter machinery cost more than
 * the call's own work. The same steps run as in LicenseServerController (the app's JSON parser, the body checked by
 * parseActivationRequest, the service, the same bytes written); a refusal goes to next(error), which ends in the
 * global exception filter as a refusal from the controller does. Any other body (a form, none) takes the long way.
 */
@Injectable()
export class ActivationFastPath implements OnModuleInit {
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

  use(request: Request, response: Response, next: NextFunction, parseJson: JsonBodyParser): void {
    const call = request.method === 'POST' ? ACTIONS.get(request.originalUrl) : undefined;
    if (!call) return next();
    parseJson(request, response, (refused) => {
      if (refused) return next(refused);
      // Not JSON (a form, no body): the body parsers and the controller answer it.
      if (request.body === undefined) return next();
      // What the access log records as the route, as Nest's router would have set it.
      Object.assign(request, { route: call.route });
      this.answer(call.action, request, response).catch(next);
    });
  }

  private async answer(action: LicenseServerAction, request: Request, response: Response): Promise<void> {
    const parsed = parseActivationRequest(request.body, action !== 'deactivate');
    const { body } = await this.server.handle(action, parsed, request.ip ?? null);
    sendSignedAnswer(response, body);
  }
}
