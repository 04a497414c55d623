import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/*
 * Who is on a patient's care team: the providers who may see the patient. Today that is the primary provider
 * (`patients.ownerId`); a wider team (covering providers, a therapist beside the psychiatrist) changes only these
 * two functions, and every check of secure messages follows (decision 029).
 */

/** A condition on a `patient_id` column: the patient is one whose care team the provider is on. */
export function onCareTeamOf(patientIdColumn: SQL | { name: string }, providerId: string): SQL {
  return sql`${patientIdColumn} IN (SELECT ${patients.id} FROM ${patients}
    WHERE ${patients.ownerId} = ${providerId} AND ${patients.deletedAt} IS NULL)`;
}

/** The active providers on the patient's care team (account ids). */
export async function careTeamOf(executor: Executor, patientId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: users.id })
    .from(patients)
    .innerJoin(users, eq(users.id, patients.ownerId))
    .where(and(eq(patients.id, patientId), isNull(patients.deletedAt), eq(users.isActive, true)));
  return rows.map((r) => r.id);
}
