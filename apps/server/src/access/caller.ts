import type { AuditActor } from '../audit/audit.repository.ts';
import type { SessionUser } from '../auth/auth.service.ts';
import type { IdempotentRequest } from '../idempotency/idempotent-request.ts';

/**
 * A signed-in caller of one operation: who (the session's user and role), how they appear in the audit trail,
 * and which operation they called (the audit entry's url). Services take it and ask `authorize` what it may do.
 */
export interface Caller {
  user: SessionUser;
  actor: AuditActor;
  operation: string;
  /**
   * The request's Idempotency-Key, on a create mutation that honours one (decision 044): the service records it
   * with `recordIdempotencyKey` in the transaction that writes the record.
   */
  idempotency?: IdempotentRequest;
}

/** Someone without a session (a visitor, a person following an e-mailed link). */
export interface PublicCaller {
  actor: AuditActor;
  /** The client address, for rate limits. */
  ip: string | null;
  operation: string;
}

/** The caller of a plain HTTP route that asked for `session: 'required'` (the session plugin resolved it). */
export function callerOfRequest(
  request: { session: { user: SessionUser } | null; actor: AuditActor },
  operation: string,
): Caller {
  if (!request.session) throw new Error(`${operation}: the route must ask for session: 'required'`);
  return { user: request.session.user, actor: request.actor, operation };
}
