import { and, asc, eq, gt, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { emergencyAccessGrants } from '../emergency-access/emergency-access.table.ts';

/**
 * A provider's active emergency access to one patient (decision 036): the grant's id (every read through it names
 * it in its audit entry) and the patient, until `endsAt`.
 */
export interface EmergencyGrant {
  id: string;
  patientId: string;
  endsAt: Date;
}

/** The provider's grants in force now: started, not yet at their end, not ended early. Usually none. */
export async function activeEmergencyGrants(executor: Executor, providerId: string): Promise<EmergencyGrant[]> {
  return executor
    .select({
      id: emergencyAccessGrants.id,
      patientId: emergencyAccessGrants.patientId,
      endsAt: emergencyAccessGrants.endsAt,
    })
    .from(emergencyAccessGrants)
    .where(
      and(
        eq(emergencyAccessGrants.providerId, providerId),
        gt(emergencyAccessGrants.endsAt, new Date()),
        isNull(emergencyAccessGrants.endedAt),
      ),
    )
    .orderBy(asc(emergencyAccessGrants.startedAt));
}

/**
 * The one place where emergency access widens a reach: the caller's own records (`own`), or a record about a
 * patient of one of the caller's active grants (`patientId`). Every reach condition that honours emergency access
 * (the patient record, notes other than psychotherapy notes, questionnaire results) goes through here.
 */
export function orEmergencyGrants(
  own: SQL,
  patientId: AnyPgColumn,
  grants: readonly EmergencyGrant[] | undefined,
): SQL {
  if (!grants || grants.length === 0) return own;
  return or(
    own,
    inArray(
      patientId,
      grants.map((g) => g.patientId),
    ),
  )!;
}

/**
 * What an audit entry of a read adds when it went through emergency access: the ids of the grants of the
 * patients read (the administrators' review lists what was opened during each grant from these).
 */
export function emergencyAuditDetails(
  grants: readonly EmergencyGrant[] | undefined,
  patientIds: readonly string[],
): { emergencyAccessIds?: string[] } {
  const used = (grants ?? []).filter((g) => patientIds.includes(g.patientId)).map((g) => g.id);
  return used.length > 0 ? { emergencyAccessIds: used } : {};
}
