import { SetMetadata } from '@nestjs/common';

export const AUDIT = 'audit';

export interface AuditSpec {
  /** `area.verb`, as stored: user.create, license.revoke, auth.login … */
  action: string;
  /** What the call does, as the log says it: 'Create user', 'Sign in'. */
  what: string;
  /** The kind of record it acts on (user, version, file, license, settings, logs …); its id comes from the route's :id or the response. */
  target?: string;
}

/**
 * Puts the handler's calls in the audit trail: a success at level info, a refusal (4xx) at level warning with
 * its reason, with the actor, target, address and user agent. Server errors are recorded by the exception filter.
 */
export const Audit = (action: string, what: string, target?: string) => SetMetadata(AUDIT, { action, what, target } satisfies AuditSpec);

/** Who a call acts for before any session exists (a sign-in's second step), once the handler knows. */
export interface AuditActor {
  id: number;
  email: string;
}

const AUDIT_ACTOR = Symbol('auditActor');
type WithActor = { [AUDIT_ACTOR]?: AuditActor };

/** Names the actor of this request's audit entry when the caller has no session yet. */
export function setAuditActor(request: object, actor: AuditActor): void {
  (request as WithActor)[AUDIT_ACTOR] = { id: actor.id, email: actor.email };
}

export function auditActorOf(request: object): AuditActor | undefined {
  return (request as WithActor)[AUDIT_ACTOR];
}
