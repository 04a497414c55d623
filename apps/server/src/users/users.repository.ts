import { and, eq, inArray } from 'drizzle-orm';
import type { Role } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

/**
 * Accounts (the `users` table). Every query whose subject is an account lives here; better-auth reads and
 * writes the table through its own adapter, and statements about another table that only join an account's
 * column (the session check, invitation states, two-factor state, a reviewer's name) stay with that table.
 */
export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** Addresses are stored trimmed and lower-case (a check constraint holds the table to it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(
  executor: Executor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<UserRow | undefined> {
  const query = executor.select().from(users).where(eq(users.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** The account with this address; with `activeOnly`, only an active one. */
export async function findUserByEmail(
  executor: Executor,
  email: string,
  options: { activeOnly?: boolean } = {},
): Promise<UserRow | undefined> {
  const byEmail = eq(users.email, normalizeEmail(email));
  const [row] = await executor
    .select()
    .from(users)
    .where(options.activeOnly ? and(byEmail, eq(users.isActive, true)) : byEmail)
    .limit(1);
  return row;
}

/** The active accounts holding one of these roles (for example, who is told that an access request waits). */
export async function findActiveUsersWithRoles(executor: Executor, roles: readonly Role[]): Promise<UserRow[]> {
  if (roles.length === 0) return [];
  return executor
    .select()
    .from(users)
    .where(and(inArray(users.role, [...roles]), eq(users.isActive, true)));
}

/** Only through createAccount (users/accounts.ts), which records the creation. */
export async function insertUser(executor: Executor, values: NewUserRow): Promise<UserRow> {
  const [row] = await executor.insert(users).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Proving the e-mailed link or code verifies the address. */
export async function markEmailVerified(executor: Executor, id: string): Promise<void> {
  await executor.update(users).set({ emailVerified: true, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function setTwoFactorEnabled(executor: Executor, id: string, enabled: boolean): Promise<void> {
  await executor.update(users).set({ twoFactorEnabled: enabled, updatedAt: new Date() }).where(eq(users.id, id));
}
