import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../common/api-error';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import { SessionsService } from './sessions.service';

export const ADMIN_PATH = /^\/api\/admin(\/|$)/;

/**
 * Global guard: every route needs a live session unless marked @Public(), and every
 * /api/admin/* route needs role admin, so routes added later are protected by default.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw ApiError.unauthorized('Authentication required. Please log in.');

    const user = await this.sessions.resolve(token);
    if (!user) throw ApiError.unauthorized('Authentication expired. Please log in again.');
    request.user = user;

    if (ADMIN_PATH.test(request.baseUrl + request.path) && user.role !== 'admin') {
      throw ApiError.forbidden('Admin access required');
    }
    return true;
  }
}
