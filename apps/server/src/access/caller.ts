import type { AuditActor } from '../audit/audit.repository.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { IdempotentRequest } from '../idempotency/idempotent-request.ts';
import type { EmergencyGrant } from './emergency-grants.ts';

/**
 * A signed-in caller of one operation: who (the session's user and role), how they appear in the audit trail,
 * and which operation they called (the audit entry's url). A request's caller is its `Scope` (access/scope.ts,
 * decision 054), built once per request; services reach records and write audit entries through
 * `scopeOf(db, caller)`.
 */
export interface Caller {
  readonly user: SessionUser;
  readonly actor: AuditActor;
  readonly operation: string;
  /**
   * The request's Idempotency-Key, on a create mutation that honours one (decision 044): the service records it
   * with `recordIdempotencyKey` in the transaction that writes the record.
   */
  readonly idempotency?: IdempotentRequest;
  /** The caller's active emergency access grants, loaded at most once per request (a `Scope` has them). */
  emergencyGrants?(): Promise<readonly EmergencyGrant[]>;
}

/** Someone without a session (a visitor, a person following an e-mailed link). */
export interface PublicCaller {
  actor: AuditActor;
  /** The client address, for rate limits. */
  ip: string | null;
  operation: string;
}

/** The caller of a plain HTTP route that asked for `session: 'required'` (the scope plugin built its scope). */
export function callerOfRequest<C extends Caller>(
  request: { scope: { as(operation: string): C } | null },
  operation: string,
): C {
  if (!request.scope) throw new Error(`${operation}: the route must ask for session: 'required'`);
  return request.scope.as(operation);
}
