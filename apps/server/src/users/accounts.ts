import { PasswordSchema, type Locale, type Role } from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Auth } from '../auth/auth.ts';
import { hashPassword, insertCredential } from '../auth/passwords.ts';
import type { Database, Executor } from '../db/client.ts';
import { insertProvider, type ProviderRow } from '../providers/providers.repository.ts';
import { insertUser, normalizeEmail } from './users.repository.ts';

/** A provider's directory record (the specification's Doctor fields beyond the account's). */
export interface ProviderProfile {
  specialty: string;
  experience?: number;
  phone?: string | null;
  bio?: string | null;
  isActive?: boolean;
}

interface AccountFields {
  email: string;
  firstName: string;
  lastName: string;
  /** The language of the account's e-mails. */
  language?: Locale;
  emailVerified?: boolean;
  /**
   * better-auth's hash of a password that met the policy (hash before the transaction: it takes a moment).
   * Without one, nobody can sign in until the person sets a password through an invitation.
   */
  passwordHash?: string;
}

/**
 * A new account. A provider account always comes with its directory record (created with the account's id as
 * its id), so every provider account is in the directory and a provider has one id.
 */
export type NewAccount = AccountFields &
  ({ role: 'provider'; provider: ProviderProfile } | { role: Exclude<Role, 'provider'>; provider?: undefined });

type Created<A extends NewAccount> = {
  id: string;
  provider: A extends { provider: ProviderProfile } ? ProviderRow : null;
};

/** Who creates the account, and what the audit entries should also say (for example the access request). */
export interface CreatedBy {
  actor: AuditActor;
  url?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Creates an account, and every account is created here: demo accounts, create-admin, createDoctor and an
 * approved access request. Inside the caller's transaction: the account, its credential when a password hash
 * is given, a provider's record with the same id, and their audit entries (ACCOUNT_CREATED, PROVIDER_CREATE).
 */
export async function createAccount<A extends NewAccount>(
  tx: Executor,
  account: A,
  by: CreatedBy,
): Promise<Created<A>> {
  const id = crypto.randomUUID();
  await insertUser(tx, {
    id,
    email: normalizeEmail(account.email),
    name: `${account.firstName} ${account.lastName}`.trim(),
    firstName: account.firstName,
    lastName: account.lastName,
    role: account.role,
    language: account.language ?? 'en',
    emailVerified: account.emailVerified ?? false,
  });
  if (account.passwordHash) await insertCredential(tx, id, account.passwordHash);
  await actorScope(by.actor, by.url ?? null).audit(tx, 'ACCOUNT_CREATED', {
    accountId: id,
    role: account.role,
    ...by.details,
  });
  const provider = account.provider
    ? await createProviderRecord(
        tx,
        { id, firstName: account.firstName, lastName: account.lastName, email: account.email },
        account.provider,
        { ...by, details: { accountCreated: true, ...by.details } },
      )
    : null;
  return { id, provider } as Created<A>;
}

/**
 * Adds the directory record of a provider account, with the account's id (createAccount, or createDoctor for
 * a provider account that has none yet), and records PROVIDER_CREATE.
 */
export async function createProviderRecord(
  tx: Executor,
  account: { id: string; firstName: string; lastName: string; email: string },
  profile: ProviderProfile,
  by: CreatedBy,
): Promise<ProviderRow> {
  const row = await insertProvider(tx, {
    id: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    email: normalizeEmail(account.email),
    specialty: profile.specialty,
    experience: profile.experience ?? 0,
    phone: profile.phone ?? null,
    bio: profile.bio ?? null,
    isActive: profile.isActive ?? true,
  });
  // The provider's id is the account's; both are named so a search by account id finds this entry too.
  await actorScope(by.actor, by.url ?? null).audit(tx, 'PROVIDER_CREATE', {
    providerId: row.id,
    accountId: row.id,
    ...by.details,
  });
  return row;
}

/**
 * An account with a password, in a transaction of its own (demo accounts, create-admin, tests). The password
 * must meet the policy. Answers the new account's id.
 */
export async function createAccountWithPassword(
  auth: Auth,
  db: Database,
  account: NewAccount & { password: string },
  actor: AuditActor,
): Promise<string> {
  const policy = PasswordSchema.safeParse(account.password);
  if (!policy.success) throw new Error(policy.error.issues.map((i) => i.message).join(', '));
  const { password, ...rest } = account;
  const passwordHash = await hashPassword(auth, password);
  const created = await db.transaction((tx) => createAccount(tx, { ...rest, passwordHash }, { actor }));
  return created.id;
}
