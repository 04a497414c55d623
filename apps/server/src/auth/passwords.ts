import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { authAccounts } from './auth.table.ts';
import { markEmailVerified } from '../users/users.repository.ts';
import type { Auth } from './auth.ts';

/** better-auth's hasher (scrypt): run before the transaction, since it takes a noticeable moment. */
export async function hashPassword(auth: Auth, password: string): Promise<string> {
  return (await auth.$context).password.hash(password);
}

/**
 * Stores an account's password hash (the password already met the policy), creating the credential if the
 * account has none yet (an invited account). Proving the e-mailed link or code also verifies the address.
 */
export async function storePasswordHash(tx: Executor, userId: string, hash: string): Promise<void> {
  const updated = await tx
    .update(authAccounts)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, 'credential')))
    .returning({ id: authAccounts.id });
  if (updated.length === 0) await insertCredential(tx, userId, hash);
  await markEmailVerified(tx, userId);
}

/** The credential better-auth checks at sign-in: the account's password hash. */
export async function insertCredential(tx: Executor, userId: string, hash: string): Promise<void> {
  await tx
    .insert(authAccounts)
    .values({ id: crypto.randomUUID(), accountId: userId, providerId: 'credential', userId, password: hash });
}

/** True when the account can sign in with a password already. */
export async function hasPassword(tx: Executor, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ password: authAccounts.password })
    .from(authAccounts)
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, 'credential')));
  return !!row?.password;
}

/** Whether `password` is the account's password (better-auth's verifier, constant time). */
export async function verifyPassword(auth: Auth, tx: Executor, userId: string, password: string): Promise<boolean> {
  const [row] = await tx
    .select({ password: authAccounts.password })
    .from(authAccounts)
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, 'credential')));
  if (!row?.password) return false;
  return (await auth.$context).password.verify({ hash: row.password, password });
}
