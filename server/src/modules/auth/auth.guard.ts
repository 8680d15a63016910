import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../common/api-error';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { REQUIRED_ROLE } from '../../common/admin-only.decorator';
import { IS_PUBLIC } from '../../common/public.decorator';
import type { UserRole } from '../../common/roles';
import { SessionsService } from './sessions.service';

/**
 * Global guard: every route needs a live session unless marked @Public(), and a route marked @AdminOnly()
 * needs role admin. Both are read from the route's metadata, so no spelling of a path can change the outcome;
 * the access-control test proves every /api/admin/* route carries @AdminOnly().
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

    const role = this.reflector.getAllAndOverride<UserRole | undefined>(REQUIRED_ROLE, [context.getHandler(), context.getClass()]);
    if (role && user.role !== role) throw ApiError.forbidden('Admin access required');
    return true;
  }
}
