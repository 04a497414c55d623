import { eq } from 'drizzle-orm';
import { PasswordSchema, type Role } from '@telehealth/shared';
import { appendAuditEntry, type AuditActor } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { authAccounts, users } from '../db/schema.ts';
import type { Auth } from './auth.ts';

export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  password: string;
  emailVerified?: boolean;
}

/**
 * Creates an account with a credential, hashing the password with better-auth's hasher. The password must
 * meet the policy. Returns the new account's id.
 */
export async function createAccount(auth: Auth, db: Database, account: NewAccount, actor: AuditActor): Promise<string> {
  const policy = PasswordSchema.safeParse(account.password);
  if (!policy.success) throw new Error(policy.error.issues.map((i) => i.message).join(', '));
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(account.password);
  const email = account.email.trim().toLowerCase();
  const id = crypto.randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      email,
      name: `${account.firstName} ${account.lastName}`.trim(),
      firstName: account.firstName,
      lastName: account.lastName,
      role: account.role,
      emailVerified: account.emailVerified ?? false,
    });
    await tx.insert(authAccounts).values({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: 'credential',
      userId: id,
      password: hash,
    });
    await appendAuditEntry(tx, {
      event: 'ACCOUNT_CREATED',
      level: 'INFO',
      actor,
      details: { accountId: id, role: account.role },
    });
  });
  return id;
}

export async function findAccountIdByEmail(db: Database, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return row?.id;
}
