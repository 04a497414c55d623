import { and, asc, eq, gt, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { SIGN_IN_LOCKOUT, type Role, type UserStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { accountTokens } from '../auth/account-tokens.table.ts';
import { authAccounts, sessions, signInFailures, twoFactors, users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';
import { containsPattern } from '../db/like.ts';

/**
 * Accounts (the `users` table). Every query on the table lives here (decision 060); better-auth reads and
 * writes it through its own adapter. Another domain that shows an account's name beside its own rows takes the
 * column from `userNameOf` rather than joining the table.
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

/** A completed sign-in (the Users screen shows when). */
export async function recordSignIn(executor: Executor, id: string): Promise<void> {
  await executor.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, id));
}

export async function setUserActive(executor: Executor, id: string, isActive: boolean): Promise<void> {
  await executor.update(users).set({ isActive, updatedAt: new Date() }).where(eq(users.id, id));
}

export async function setUserRole(executor: Executor, id: string, role: Role): Promise<void> {
  await executor.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

/** Where a page of the Users list ended: lower(last name), lower(first name), id, and the filters' key. */
export type UserCursor = readonly [string, string, string, string];

export interface UserListFilters {
  search: string | null;
  role: Role | null;
  status: UserStatus | null;
  locked: boolean | null;
  twoFactor: boolean | null;
}

/** One account as the Users screen shows it (no password, no secrets). */
export interface UserListRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string | null;
  isActive: boolean;
  twoFactorEnabled: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
  /** Too many failed sign-ins in the lockout window, or the authenticator code's own lock. */
  locked: boolean;
  /** No password yet: an invitation waits. */
  invitationPending: boolean;
  /** The patient record linked to a patient account, if any. */
  patientId: string | null;
}

const lockoutWindowSeconds = SIGN_IN_LOCKOUT.windowMs / 1000;

// Columns inside these subqueries go through eq()/gt(), which name their table: drizzle writes a bare column
// interpolated into sql`` without it when the outer query reads one table, and "id" would then mean the inner one.

/** The same rule as SignInLockout.lockRemainingMs, as a condition on `users`, plus two-factor's own lock. */
const lockedCondition = sql<boolean>`((SELECT count(*) FROM ${signInFailures} WHERE ${and(
  eq(signInFailures.email, users.email),
  gt(signInFailures.failedAt, sql`now() - make_interval(secs => ${lockoutWindowSeconds})`),
)}) >= ${SIGN_IN_LOCKOUT.maxAttempts}
  OR EXISTS (SELECT 1 FROM ${twoFactors} WHERE ${and(eq(twoFactors.userId, users.id), gt(twoFactors.lockedUntil, sql`now()`))}))`;

const hasPasswordCondition = sql<boolean>`EXISTS (SELECT 1 FROM ${authAccounts} WHERE ${and(
  eq(authAccounts.userId, users.id),
  eq(authAccounts.providerId, 'credential'),
  sql`coalesce(${authAccounts.password}, '') <> ''`,
)})`;

const linkedPatientId = sql<string | null>`(SELECT ${patients.id} FROM ${patients} WHERE ${and(
  eq(patients.accountId, users.id),
  isNull(patients.deletedAt),
)} LIMIT 1)`;

const searchText = sql`lower(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email})`;

/**
 * One page of accounts in name order (keyset: lower(last name), lower(first name), id), with the filters.
 * `limit + 1` rows are read to know whether another page follows.
 */
export async function listUsersPage(
  executor: Executor,
  options: { filters: UserListFilters; after: UserCursor | null; limit: number; filterKey: string },
): Promise<{ rows: UserListRow[]; next: UserCursor | null }> {
  const { filters, after } = options;
  const conditions: SQL[] = [];
  if (filters.search) {
    conditions.push(sql`${searchText} LIKE ${containsPattern(filters.search.toLowerCase())}`);
  }
  if (filters.role) conditions.push(eq(users.role, filters.role));
  if (filters.status) conditions.push(eq(users.isActive, filters.status === 'active'));
  if (filters.twoFactor !== null) conditions.push(eq(users.twoFactorEnabled, filters.twoFactor));
  if (filters.locked !== null) conditions.push(filters.locked ? lockedCondition : sql`NOT ${lockedCondition}`);
  if (after) {
    conditions.push(
      sql`(lower(${users.lastName}), lower(${users.firstName}), ${users.id}) > (${after[0]}, ${after[1]}, ${after[2]}::uuid)`,
    );
  }
  const rows = await selectListRows(executor)
    .where(and(...conditions))
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    rows: page.map(toListRow),
    next: rows.length > options.limit && last ? [last.lastKey, last.firstKey, last.id, options.filterKey] : null,
  };
}

/** These accounts as the list shows them (in no particular order). */
export async function findUserListRows(executor: Executor, ids: readonly string[]): Promise<UserListRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectListRows(executor).where(inArray(users.id, [...ids]));
  return rows.map(toListRow);
}

function toListRow(row: Awaited<ReturnType<ReturnType<typeof selectListRows>['where']>>[number]): UserListRow {
  const { lastKey: _l, firstKey: _f, hasPassword, ...rest } = row;
  return { ...rest, invitationPending: !hasPassword };
}

function selectListRows(executor: Executor) {
  return executor
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      isActive: users.isActive,
      twoFactorEnabled: users.twoFactorEnabled,
      lastSignInAt: users.lastSignInAt,
      createdAt: users.createdAt,
      locked: lockedCondition,
      hasPassword: hasPasswordCondition,
      patientId: linkedPatientId,
      lastKey: sql<string>`lower(${users.lastName})`,
      firstKey: sql<string>`lower(${users.firstName})`,
    })
    .from(users);
}

/** Whether the account is locked now (the list's rule, for one account). */
export async function isUserLocked(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ locked: lockedCondition }).from(users).where(eq(users.id, id));
  return row?.locked ?? false;
}

/** The active administrators' ids (call with the administrators' lock held; see AdminUsersService). */
export async function findActiveAdministratorIds(executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
  return rows.map((row) => row.id);
}

// Queries other domains make about accounts ---------------------------------------------------------------------

/** The e-mail address and language of the active accounts among these ids (whom a notice is mailed to). */
export async function activeUsersContact(
  executor: Executor,
  ids: readonly string[],
): Promise<{ email: string; language: string }[]> {
  if (ids.length === 0) return [];
  return executor
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(and(inArray(users.id, [...ids]), eq(users.isActive, true)));
}

/**
 * An account's name as a column of another table's query: `(SELECT name FROM users WHERE id = column)`. For a
 * NOT NULL reference (who signed, wrote, shared); who signed, answered, shared or changed a row is shown by name
 * through this or `userNameOrNullOf`, so no other domain joins `users` itself (decision 060).
 */
export function userNameOf(column: SQL | AnyColumn): SQL<string> {
  return sql<string>`(SELECT ${users.name} FROM ${users} WHERE ${eq(users.id, column)})`;
}

/** The same for a reference that may be null (or, with `activeOnly`, null when the account is not active). */
export function userNameOrNullOf(column: SQL | AnyColumn, options: { activeOnly?: boolean } = {}): SQL<string | null> {
  const condition = options.activeOnly ? and(eq(users.id, column), eq(users.isActive, true)) : eq(users.id, column);
  return sql<string | null>`(SELECT ${users.name} FROM ${users} WHERE ${condition})`;
}

/** The language of the account (null when there is none) as a column of another table's query. */
export function userLanguageOrNullOf(column: SQL | AnyColumn): SQL<string | null> {
  return sql<string | null>`(SELECT ${users.language} FROM ${users} WHERE ${eq(users.id, column)})`;
}

/** What My account shows of the signed-in account, with its patient record (a patient's) and other sessions. */
export async function findMyAccountRow(executor: Executor, userId: string, sessionId: string) {
  const [row] = await executor
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      language: users.language,
      languageChosen: users.languageChosen,
      twoFactorEnabled: users.twoFactorEnabled,
      otherSessions: sql<number>`(SELECT count(*) FROM ${sessions}
          WHERE ${sessions.userId} = ${users.id} AND ${sessions.id} <> ${sessionId} AND ${sessions.expiresAt} > now())::int`,
      phone: patients.phone,
      patientId: patients.id,
    })
    .from(users)
    .leftJoin(
      patients,
      and(eq(patients.accountId, users.id), isNull(patients.deletedAt), sql`${users.role} = 'patient'`),
    )
    .where(eq(users.id, userId));
  return row;
}

/** What a person may change of their own account (My account). */
export type AccountFieldsUpdate = Partial<
  Pick<NewUserRow, 'language' | 'languageChosen' | 'firstName' | 'lastName' | 'name'>
>;

export async function updateUserFields(executor: Executor, id: string, values: AccountFieldsUpdate): Promise<void> {
  await executor
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/** Whether the account has two-factor on, with its authenticator's state (if any). */
export async function findTwoFactorState(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ verified: twoFactors.verified, backupCodes: twoFactors.backupCodes, enabled: users.twoFactorEnabled })
    .from(users)
    .leftJoin(twoFactors, eq(twoFactors.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

/** For each of these accounts: active, has a password, and its newest open invitation link's expiry. */
export async function findInvitationStateRows(executor: Executor, ids: readonly string[]) {
  return executor
    .select({
      id: users.id,
      isActive: users.isActive,
      hasPassword: hasPasswordCondition,
      expiresAt: sql<Date | null>`(select max(${accountTokens.expiresAt}) from ${accountTokens} where ${and(
        eq(accountTokens.userId, users.id),
        eq(accountTokens.kind, 'invitation'),
        isNull(accountTokens.usedAt),
        isNull(accountTokens.revokedAt),
      )})`.mapWith(accountTokens.expiresAt),
    })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/**
 * The accounts as another domain's query joins them (who signed, reviewed, is mailed): `(SELECT id, name, ...
 * FROM users) <alias>`, with only the columns other domains read. PostgreSQL pulls such a subquery up into the
 * join, so the plan is the one of a join on `users` itself (decision 060). One alias per join of the query.
 */
export function userAccounts<TAlias extends string>(alias: TAlias) {
  return new QueryBuilder()
    .select({
      id: users.id,
      name: users.name,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      language: users.language,
      role: users.role,
      isActive: users.isActive,
      twoFactorEnabled: users.twoFactorEnabled,
    })
    .from(users)
    .as(alias);
}

/** The ids of the accounts with this address, in either case (the audit search's person filter). */
export async function findUserIdsByEmail(executor: Executor, email: string): Promise<string[]> {
  const rows = await executor
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return rows.map((r) => r.id);
}

/**
 * The people named by these actor ids (the audit trail's `user_id`, which may also be `system`, `anonymous` or
 * `api-token:…`): name, e-mail and role by account id, for the audit screens and the compliance report.
 */
export async function findPeopleByIds(
  executor: Executor,
  actorIds: readonly (string | null)[],
): Promise<Map<string, { name: string; email: string; role: string | null }>> {
  const ids = [...new Set(actorIds)].filter((id): id is string => id !== null && isUuid(id));
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map(({ id, ...person }) => [id, person]));
}

/** A condition on another table's account column: the account is active (and, with `role`, holds that role). */
export function isActiveUser(column: SQL | AnyColumn, role?: Role): SQL {
  const conditions = [eq(users.id, column), eq(users.isActive, true), role ? eq(users.role, role) : undefined];
  return sql`EXISTS (SELECT 1 FROM ${users} WHERE ${and(...conditions)})`;
}
