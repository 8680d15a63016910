import type { Request } from 'express';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { FailureReporter } from '../../common/all-exceptions.filter';
import { AuditLogService } from './audit-log.service';
import { routeOf } from '../access-log/access-log.service';
import { MAX_LENGTH } from '../../database/column-lengths';

/** The exception filter's failures, as audit trail entries: 5xx at level error, refused access at level warning. */
export function auditFailures(audit: AuditLogService): FailureReporter {
  const who = (request: Request) => {
    const user = (request as AuthenticatedRequest).user;
    return user ? { id: user.id, email: user.email } : null;
  };
  const where = (request: Request) => ({ ip: request.ip ?? null, userAgent: request.get('user-agent') ?? null });
  return {
    serverError(request, status, error) {
      const reason = error instanceof Error ? error.message : String(error);
      void audit.record({
        level: 'error',
        action: 'server.error',
        message: `${request.method} ${request.path} failed with ${status}: ${reason}`.slice(0, MAX_LENGTH.auditMessage),
        actor: who(request),
        ...where(request),
        context: { status, method: request.method, route: routeOf(request), error: error instanceof Error ? error.name : typeof error },
      });
    },
    accessDenied(request, message) {
      void audit.record({
        level: 'warning',
        action: 'auth.access_denied',
        message: `${request.method} ${request.path} refused: ${message}`.slice(0, MAX_LENGTH.auditMessage),
        actor: who(request),
        ...where(request),
        context: { status: 403, method: request.method, route: routeOf(request) },
      });
    },
  };
}
