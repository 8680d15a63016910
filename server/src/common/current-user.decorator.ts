import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { UserRole } from './roles';

/** The signed-in user as the auth guard resolved it for this request. */
export interface AuthUser {
  id: number;
  email: string;
  role: UserRole;
  sessionId: string;
}

export type AuthenticatedRequest = Request & { user?: AuthUser };

export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): AuthUser => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return request.user!;
});
