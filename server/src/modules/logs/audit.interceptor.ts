import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, tap } from 'rxjs';
import { AUDIT, auditActorOf, AuditSpec } from '../../common/audit.decorator';
import { AuthenticatedRequest } from '../../common/current-user.decorator';
import { routeOf } from '../access-log/access-log.service';
import { AuditLogService } from './audit-log.service';

/** Body fields whose values say what was done without revealing a secret; other fields are listed by name only. */
const SHOWN_VALUES = new Set([
  'email',
  'user_email',
  'key',
  'type',
  'version',
  'product_name',
  'os_type',
  'architecture',
  'days',
  'status',
  'role',
  'user_type',
  'is_active',
  'is_verified',
  'is_stable',
  'is_latest',
  'max_activations',
  'license_key',
  'server_uid',
]);
/** Response fields that name what was acted on, best first. */
const LABELS = ['email', 'user_email', 'license_key', 'version', 'file_name', 'product_name', 'key', 'kid'];

type HandlerResult = { data?: Record<string, unknown> } | undefined;

/** Writes the audit trail entry of every handler marked @Audit(), after it succeeded or was refused. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT, context.getHandler());
    if (!spec) return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    return next.handle().pipe(
      tap({
        next: (result: unknown) => void this.record(spec, request, result as HandlerResult, null),
        error: (error: unknown) => {
          const status = error instanceof HttpException ? error.getStatus() : 500;
          // Server errors are the exception filter's to record, once, at level error.
          if (status < 500) void this.record(spec, request, undefined, error as HttpException);
        },
      }),
    );
  }

  private record(spec: AuditSpec, request: AuthenticatedRequest, result: HandlerResult, refusal: HttpException | null): Promise<void> {
    const body = isObject(request.body) ? request.body : {};
    const data = isObject(result?.data) ? result.data : {};
    const label = [...LABELS.map((field) => data[field]), ...LABELS.map((field) => body[field]), request.params?.kid].find(
      (value) => typeof value === 'string' && value,
    ) as string | undefined;
    const param = request.params?.id;
    const targetId = typeof param === 'string' ? param : typeof data.id === 'number' || typeof data.id === 'string' ? data.id : null;
    const name = label ?? (targetId !== null && targetId !== undefined ? `#${targetId}` : '');
    const status = refusal ? refusal.getStatus() : undefined;
    const reason = refusal ? messageOf(refusal) : '';
    // Without a session (sign-in, registration, e-mail verification) the actor is the address the call names.
    const named = [body.email, data.email].find((value): value is string => typeof value === 'string');
    const actor = request.user ?? auditActorOf(request);
    const actorEmail = actor?.email ?? named?.trim().toLowerCase() ?? null;
    return this.audit.record({
      level: refusal ? 'warning' : 'info',
      action: spec.action,
      message: refusal
        ? `${spec.what} refused (${status})${name ? ` for ${name}` : ''}: ${reason}`
        : `${spec.what}${name ? `: ${name}` : ''}`,
      actor: actor ? { id: actor.id, email: actor.email } : actorEmail ? { id: null, email: actorEmail } : null,
      target: spec.target ? { type: spec.target, id: targetId ?? null } : null,
      ip: request.ip ?? null,
      userAgent: request.get('user-agent') ?? null,
      // What the message says, as fields: screens compose it in the reader's language from these and the action.
      context: {
        ...(status ? { status, reason } : {}),
        ...(name ? { subject: name } : {}),
        method: request.method,
        route: routeOf(request),
        ...describeBody(body),
      },
    });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function describeBody(body: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.keys(body).slice(0, 30);
  if (!fields.length) return {};
  const values = Object.fromEntries(
    fields
      .filter((field) => SHOWN_VALUES.has(field))
      .map((field) => [field, typeof body[field] === 'string' ? String(body[field]).slice(0, 100) : body[field]]),
  );
  return { fields, ...(Object.keys(values).length ? { values } : {}) };
}

function messageOf(error: HttpException): string {
  const response = error.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  return (Array.isArray(message) ? message.join(', ') : typeof message === 'string' ? message : error.message).slice(0, 300);
}
