import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { AUDIT_RETENTION_YEARS } from '@telehealth/shared';
import { systemScope } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { auditChain, auditEntries } from '../audit/audit.table.ts';
import type { Keyring } from '../keys/keyring.ts';
import { auditPruned } from './data.table.ts';

// The retention of audit entries (decision 037): an entry is kept for its retention years (6 for HIPAA events, 7
// for other critical ones, 3 otherwise: AUDIT_RETENTION_YEARS, stored with each entry), then removed by a daily
// job. Its link in audit_chain (position, checksum, the previous checksum) stays, so the chain still links from
// end to end; a row in audit_pruned, signed with a key derived from the data keys (which the database does not
// hold), says the entry's content is gone because it expired. Verification accepts a missing entry only with a
// valid signature over its position, its checksum and a time of expiry before the pruning: whoever deletes an
// entry by hand cannot make one.

const PURPOSE = 'telehealth audit retention v1';
const BATCH = 1000;

/** What a pruned entry's signature covers. */
export interface PrunedLink {
  entryId: number;
  position: number;
  checksum: string;
  expiresAt: Date;
  prunedAt: Date;
  keyId: string;
  signature: string;
}

function signatureOf(key: Buffer, link: Omit<PrunedLink, 'keyId' | 'signature'>): string {
  return createHmac('sha256', key)
    .update(
      JSON.stringify([
        link.entryId,
        link.position,
        link.checksum,
        link.expiresAt.toISOString(),
        link.prunedAt.toISOString(),
      ]),
    )
    .digest('hex');
}

/** Checks a pruned entry's signature with the data keys (under the key it names). */
export function prunedSignatureVerifier(keyring: Keyring): (link: PrunedLink) => boolean {
  return (link) => {
    const derived = keyring.deriveKey(PURPOSE, link.keyId);
    if (!derived) return false;
    const expected = Buffer.from(signatureOf(derived.key, link), 'hex');
    const given = Buffer.from(link.signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected) && link.expiresAt <= link.prunedAt;
  };
}

function addYears(at: Date, years: number): Date {
  const out = new Date(at);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
}

/**
 * Removes the sealed audit entries whose retention has passed, in batches (one transaction each: the signed record
 * and the removal commit together). Entries not sealed yet are left for a later run. Answers how many went.
 */
export async function pruneExpiredAuditEntries(
  db: Database,
  keyring: Keyring,
  options: { now?: Date; batchSize?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? BATCH;
  const key = keyring.deriveKey(PURPOSE)!;
  let total = 0;
  const byYears: Record<number, number> = {};
  for (const years of [...new Set(Object.values(AUDIT_RETENTION_YEARS))]) {
    const cutoff = addYears(now, -years);
    for (;;) {
      const pruned = await db.transaction(async (tx) => {
        const rows = await tx
          .select({
            entryId: auditEntries.id,
            timestamp: auditEntries.timestamp,
            position: auditChain.position,
            checksum: auditChain.checksum,
          })
          .from(auditEntries)
          .innerJoin(auditChain, eq(auditChain.entryId, auditEntries.id))
          .where(and(eq(auditEntries.retentionYears, years), lte(auditEntries.timestamp, cutoff)))
          .orderBy(asc(auditEntries.timestamp))
          .limit(batchSize)
          .for('update', { of: auditEntries });
        if (rows.length === 0) return 0;
        const prunedAt = new Date(now);
        await tx.insert(auditPruned).values(
          rows.map((row) => {
            const link = {
              entryId: row.entryId,
              position: row.position,
              checksum: row.checksum,
              expiresAt: addYears(row.timestamp, years),
              prunedAt,
            };
            return { ...link, keyId: key.keyId, signature: signatureOf(key.key, link) };
          }),
        );
        await tx.delete(auditEntries).where(
          inArray(
            auditEntries.id,
            rows.map((r) => r.entryId),
          ),
        );
        return rows.length;
      });
      total += pruned;
      if (pruned > 0) byYears[years] = (byYears[years] ?? 0) + pruned;
      if (pruned < batchSize) break;
    }
  }
  if (total > 0) {
    await systemScope('audit:retention').audit(db, 'AUDIT_ENTRIES_PRUNED', {
      pruned: total,
      byRetentionYears: byYears,
      before: now.toISOString(),
    });
  }
  return total;
}

/** How many entries were pruned so far (for the data screen). */
export async function countPrunedAuditEntries(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(auditPruned);
  return row?.n ?? 0;
}
