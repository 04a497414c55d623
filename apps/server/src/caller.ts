import { MESSAGES } from '@telehealth/shared';
import { appendAuditEntry, type AuditActor } from './audit/audit.repository.ts';
import type { Database } from './db/client.ts';
import { forbidden } from './errors.ts';
import type { Caller } from './patients/patients.service.ts';

/** Someone without a session (a visitor, a person following an e-mailed link). */
export interface PublicCaller {
  actor: AuditActor;
  /** The client address, for rate limits. */
  ip: string | null;
  operation: string;
}

/** Refuses (and records) a caller who is not an administrator. */
export async function requireAdmin(
  db: Database,
  caller: Caller,
  details: Record<string, unknown>,
  message: string = MESSAGES.adminRequired,
): Promise<void> {
  if (caller.user.role === 'admin') return;
  await appendAuditEntry(db, {
    event: 'UNAUTHORIZED_ACCESS',
    level: 'WARNING',
    actor: caller.actor,
    url: caller.operation,
    details,
  });
  throw forbidden(message);
}
