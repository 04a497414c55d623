import type { AuditActor } from '../audit/audit.repository.ts';
import type { SessionUser } from '../auth/auth.service.ts';

/**
 * A signed-in caller of one operation: who (the session's user and role), how they appear in the audit trail,
 * and which operation they called (the audit entry's url). Services take it and ask `authorize` what it may do.
 */
export interface Caller {
  user: SessionUser;
  actor: AuditActor;
  operation: string;
}

/** Someone without a session (a visitor, a person following an e-mailed link). */
export interface PublicCaller {
  actor: AuditActor;
  /** The client address, for rate limits. */
  ip: string | null;
  operation: string;
}
