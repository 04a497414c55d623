import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { userNameOrNullOf } from '../users/users.repository.ts';
import { onCareTeamOf } from './patients.repository.ts';
import { patients } from './patients.table.ts';

// A patient record's link to the patient's portal account (decision 060): the record of an account, the account of
// a record, inviting a record's patient and linking the new account. What changes when an account may hold more
// than one record (a guardian) changes here.

/** The (not deleted) patient record linked to an account: the patient's own record in the portal. */
export async function findLinkedPatient(
  executor: Executor,
  accountId: string,
): Promise<{ id: string; ownerId: string | null } | undefined> {
  const [row] = await executor
    .select({ id: patients.id, ownerId: patients.ownerId })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt)))
    .limit(1);
  return row;
}

/** The account linked to the patient's record (deleted or not), if any: who is told of the record's news. */
export async function findPatientAccountId(executor: Executor, patientId: string): Promise<string | null> {
  const [row] = await executor
    .select({ accountId: patients.accountId })
    .from(patients)
    .where(eq(patients.id, patientId));
  return row?.accountId ?? null;
}

/** The (not deleted) record with its linked account, if any. */
export async function findPatientWithAccount(
  executor: Executor,
  patientId: string,
): Promise<{ id: string; accountId: string | null } | undefined> {
  const [row] = await executor
    .select({ id: patients.id, accountId: patients.accountId })
    .from(patients)
    .where(and(eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row;
}

/**
 * The (not deleted) records linked to the account, each with its primary provider's name, null unless that account
 * is active: whom a patient may write to.
 */
export async function findLinkedPatientsWithProvider(
  executor: Executor,
  accountId: string,
): Promise<{ id: string; providerName: string | null }[]> {
  return executor
    .select({ id: patients.id, providerName: userNameOrNullOf(patients.ownerId, { activeOnly: true }) })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt)));
}

/**
 * The (not deleted) records linked to an account, on the provider's care team when `careTeamOf` is given, whose
 * first, last or full name matches the ILIKE pattern when one is given; in name order, at most `limit`: whom staff
 * may write to.
 */
export async function findPatientsWithAccount(
  executor: Executor,
  options: { careTeamOf?: string | undefined; pattern?: string | null | undefined; limit: number },
): Promise<{ id: string; firstName: string; lastName: string }[]> {
  const { careTeamOf, pattern, limit } = options;
  return executor
    .select({ id: patients.id, firstName: patients.firstName, lastName: patients.lastName })
    .from(patients)
    .where(
      and(
        and(isNull(patients.deletedAt), sql`${patients.accountId} IS NOT NULL`),
        careTeamOf ? onCareTeamOf(sql`${patients.id}`, careTeamOf) : undefined,
        pattern
          ? or(
              ilike(patients.firstName, pattern),
              ilike(patients.lastName, pattern),
              ilike(sql`${patients.firstName} || ' ' || ${patients.lastName}`, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(patients.lastName), asc(patients.firstName))
    .limit(limit);
}

/** A patient's own phone (My account): on the record linked to the account. Answers the record's id, if any. */
export async function setLinkedPatientPhone(
  executor: Executor,
  accountId: string,
  phone: string | null,
): Promise<{ id: string } | undefined> {
  const [record] = await executor
    .update(patients)
    .set({ phone, updatedAt: new Date() })
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt)))
    .returning({ id: patients.id });
  return record;
}

/** Records without an account whose name or e-mail matches the LIKE pattern, in name order (inviting a patient). */
export async function findInvitablePatients(
  executor: Executor,
  pattern: string,
  limit: number,
): Promise<{ id: string; firstName: string; lastName: string; email: string; dateOfBirth: string }[]> {
  return executor
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      email: patients.email,
      dateOfBirth: patients.dateOfBirth,
    })
    .from(patients)
    .where(
      and(
        isNull(patients.deletedAt),
        isNull(patients.accountId),
        or(ilike(sql`${patients.firstName} || ' ' || ${patients.lastName}`, pattern), ilike(patients.email, pattern)),
      ),
    )
    .orderBy(sql`lower(${patients.lastName})`, sql`lower(${patients.firstName})`, patients.id)
    .limit(limit);
}

/** The (not deleted) record's name and account link, its row locked until the transaction ends (inviting its patient). */
export async function lockPatientAccountLink(
  executor: Executor,
  id: string,
): Promise<{ id: string; firstName: string; lastName: string; accountId: string | null } | undefined> {
  const [record] = await executor
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      accountId: patients.accountId,
    })
    .from(patients)
    .where(and(eq(patients.id, id), isNull(patients.deletedAt)))
    .for('update');
  return record;
}

/** Links the record to the patient's new account. */
export async function linkPatientAccount(executor: Executor, patientId: string, accountId: string): Promise<void> {
  await executor.update(patients).set({ accountId, updatedAt: new Date() }).where(eq(patients.id, patientId));
}
