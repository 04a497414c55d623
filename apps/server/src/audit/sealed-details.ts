import { and, asc, eq, sql } from 'drizzle-orm';
import { redactAuditDetails } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { auditEntries } from './audit.table.ts';
import { EncryptedValueError, type FieldContext, type Keyring } from '../keys/keyring.ts';

/**
 * Audit details readable only through their actor's own read path: what an entry about a psychotherapy note names
 * (the note, the patient, what was done) is encrypted with the data keys (decision 016) and bound to the actor, so
 * an administrator, an API token, a report and the patient's access log see only that the actor did something
 * (decision 027, issue 24). The entry still exists and the chain's checksum covers the stored ciphertext.
 *
 * Stored details: `{ "sealed": "enc:v1:…" }`, nothing else in clear.
 */
export type SealedDetails = Record<string, unknown> & { sealed: string };

function contextOf(actorId: string): FieldContext {
  return { table: 'audit_entries', column: 'details.sealed', id: actorId };
}

/** The details to store for an entry whose subject only its actor may know. */
export function sealAuditDetails(keyring: Keyring, actorId: string, details: Record<string, unknown>): SealedDetails {
  return { sealed: keyring.encrypt(JSON.stringify(redactAuditDetails(details)), contextOf(actorId)) };
}

/**
 * What a sealed entry of this actor names; null when it cannot be opened (under a data key the keyring no longer
 * holds, or not this actor's), never garbage.
 */
export function openSealedDetails(keyring: Keyring, actorId: string, sealed: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(keyring.decrypt(sealed, contextOf(actorId)));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch (error) {
    if (error instanceof EncryptedValueError || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** A sealed entry of the actor, opened. */
export interface OpenedEntry {
  id: number;
  timestamp: Date;
  event: string;
  details: Record<string, unknown>;
}

/**
 * The actor's own sealed entries that `matches` keeps, oldest first (the actor's entries by the user index, the
 * sealed ones among them opened here; those that cannot be opened are left out).
 */
export async function findOwnSealedEntries(
  executor: Executor,
  keyring: Keyring,
  actorId: string,
  matches: (details: Record<string, unknown>) => boolean,
): Promise<OpenedEntry[]> {
  const rows = await executor
    .select({
      id: auditEntries.id,
      timestamp: auditEntries.timestamp,
      event: auditEntries.event,
      sealed: sql<string>`${auditEntries.details} ->> 'sealed'`,
    })
    .from(auditEntries)
    .where(
      and(eq(auditEntries.userId, actorId), eq(auditEntries.source, 'server'), sql`${auditEntries.details} ? 'sealed'`),
    )
    .orderBy(asc(auditEntries.timestamp), asc(auditEntries.id));
  return rows.flatMap((row) => {
    const details = openSealedDetails(keyring, actorId, row.sealed);
    return details && matches(details) ? [{ id: row.id, timestamp: row.timestamp, event: row.event, details }] : [];
  });
}
