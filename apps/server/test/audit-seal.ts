import { sql } from 'drizzle-orm';
import { vi } from 'vitest';
import { sealAuditChain } from '../src/audit/audit-chain.ts';
import type { Database } from '../src/db/client.ts';
import { TEST_BUDGET_MS } from './budget.ts';

/** Committed audit entries not in the chain yet. */
export async function unsealedCount(db: Database): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM audit_entries e WHERE NOT EXISTS (SELECT 1 FROM audit_chain c WHERE c.entry_id = e.id)`,
  );
  return result.rows[0]!.n;
}

/**
 * Seals until every committed entry is in the chain. The sealer leaves the entries of transactions newer than one
 * still running anywhere in the same PostgreSQL (another test file's database included: the horizon is the
 * server's), so one call may seal nothing; this keeps calling until none is left. Answers how many it sealed.
 */
export async function sealEverything(db: Database): Promise<number> {
  let sealed = 0;
  await vi.waitFor(
    async () => {
      sealed += (await sealAuditChain(db, { wait: true })).sealed;
      const left = await unsealedCount(db);
      if (left > 0) throw new Error(`${left} audit entries are still unsealed`);
    },
    { timeout: TEST_BUDGET_MS, interval: 25 },
  );
  return sealed;
}

/** Waits until the runtime's own sealer (a job) has sealed every committed entry. */
export async function untilSealed(db: Database): Promise<void> {
  await vi.waitFor(
    async () => {
      const left = await unsealedCount(db);
      if (left > 0) throw new Error(`${left} audit entries are still unsealed`);
    },
    { timeout: TEST_BUDGET_MS, interval: 50 },
  );
}
