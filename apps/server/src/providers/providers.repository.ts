import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { providers } from './providers.table.ts';
import type { PatientCursor } from '../db/cursor.ts';
import { isActiveUser } from '../users/users.repository.ts';

export type ProviderRow = typeof providers.$inferSelect;
export type NewProviderRow = typeof providers.$inferInsert;

/**
 * True when a provider with this id (their account's id) exists and its account is active with the provider
 * role: who may be named a patient's primary provider.
 */
export async function isActiveProvider(tx: Executor, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.id, id), isActiveUser(providers.id, 'provider')));
  return row !== undefined;
}

const lowerLast = sql`lower(${providers.lastName})`;
const lowerFirst = sql`lower(${providers.firstName})`;

export async function listProvidersPage(
  tx: Executor,
  options: { activeOnly: boolean; after: PatientCursor | null; limit: number },
): Promise<{ rows: ProviderRow[]; next: PatientCursor | null }> {
  const conditions: SQL[] = [];
  if (options.activeOnly) conditions.push(eq(providers.isActive, true));
  if (options.after) {
    const [last, first, id] = options.after;
    conditions.push(sql`(${lowerLast}, ${lowerFirst}, ${providers.id}) > (${last}, ${first}, ${id}::uuid)`);
  }
  const rows = await tx
    .select({ provider: providers, sortLast: sql<string>`${lowerLast}`, sortFirst: sql<string>`${lowerFirst}` })
    .from(providers)
    .where(and(...conditions))
    .orderBy(asc(lowerLast), asc(lowerFirst), asc(providers.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    rows: page.map((r) => r.provider),
    next: rows.length > options.limit && last ? [last.sortLast, last.sortFirst, last.provider.id] : null,
  };
}

export async function findProviderById(tx: Executor, id: string): Promise<ProviderRow | undefined> {
  const [row] = await tx.select().from(providers).where(eq(providers.id, id));
  return row;
}

/** The provider record of an account: its id is the account's (users/accounts.ts creates both). */
export async function insertProvider(tx: Executor, values: NewProviderRow): Promise<ProviderRow> {
  const [row] = await tx.insert(providers).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}
