import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiForbiddenResponse, ApiHeader, ApiSecurity, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../../common/api-error';
import { Public } from '../../common/public.decorator';
import { LICENSE_KEY } from '../../openapi';
import { SERVER_UID_PATTERN } from '../license-server/dto/activation.dto';
import { type LicenseHolder, LicenseServerService } from '../license-server/license-server.service';
import { UpdateRefusalDto } from './dto/update.dto';

const SERVER_UID = 'portal:server-uid';
export const SERVER_UID_HEADER = 'x-server-uid';

type ServerUid = 'required' | 'optional';
type LicensedRequest = Request & { licenseHolder?: LicenseHolder };

/**
 * The route is called by a streaming server (or a script) with its license key, `Authorization: License <key>`,
 * and its server id in `X-Server-Uid` (required: the server must hold a seat on the license; optional: checked
 * when sent). No session: the key is the credential, rate-limited as the activation API's is.
 */
export const LicenseKeyAuth = (serverUid: ServerUid) =>
  applyDecorators(
    Public(),
    ApiSecurity(LICENSE_KEY),
    ApiHeader({
      name: 'X-Server-Uid',
      required: serverUid === 'required',
      description: 'The server id it activated with (8 to 128 letters, digits, dots, underscores, colons or hyphens).',
    }),
    ApiUnauthorizedResponse({ type: UpdateRefusalDto, description: 'No license key, or an unknown one' }),
    ApiForbiddenResponse({ type: UpdateRefusalDto, description: 'The license is revoked or pending, or the server holds no seat on it' }),
    ApiTooManyRequestsResponse({ description: 'Too many license requests from this address or for this key (Retry-After)' }),
    SetMetadata(SERVER_UID, serverUid),
    UseGuards(LicenseKeyGuard),
  );

/** The license (and seat) the caller proved, in a LicenseKeyAuth route. */
export const CurrentLicenseHolder = createParamDecorator(
  (_data: unknown, context: ExecutionContext): LicenseHolder => context.switchToHttp().getRequest<LicensedRequest>().licenseHolder!,
);

@Injectable()
export class LicenseKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly server: LicenseServerService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<LicensedRequest>();
    const [scheme, key, ...rest] = (request.headers.authorization ?? '').trim().split(/\s+/);
    if (scheme?.toLowerCase() !== 'license' || !key || rest.length)
      throw new ApiError(
        HttpStatus.UNAUTHORIZED,
        'A license key is required: send Authorization: License <key>',
        undefined,
        'LICENSE_KEY_REQUIRED',
      );
    const sent = request.headers[SERVER_UID_HEADER];
    const serverUid = typeof sent === 'string' ? sent : null;
    if (serverUid === null && this.reflector.get<ServerUid>(SERVER_UID, context.getHandler()) === 'required')
      throw ApiError.badRequest('X-Server-Uid is required: the id the server activated with');
    if (serverUid !== null && !SERVER_UID_PATTERN.test(serverUid))
      throw ApiError.badRequest('X-Server-Uid must be 8 to 128 letters, digits, dots, underscores, colons or hyphens');
    request.licenseHolder = await this.server.authenticate(key, serverUid, request.ip ?? null);
    return true;
  }
}
