import type { Reach } from '../access/authorize.ts';
import type { Scope } from '../access/scope.ts';
import type { Executor } from '../db/client.ts';
import { isVisiblePatient, patientExists } from '../patients/patients.repository.ts';

type RecordAction = 'clinical-record:read' | 'clinical-record:write';

/**
 * The patient records a reach of the psychiatric record reaches (decision 062): a provider's are their own
 * patients' (the record's `patientOwnerId` is the patient's `ownerId`), a patient's the one linked to their account;
 * an emergency grant widens a read.
 */
export function recordPatientReach(reach: Reach<'clinical-record'>): Reach<'patient'> {
  if (reach.kind === 'any') return reach;
  return { ...reach, field: reach.field === 'patientOwnerId' ? 'ownerId' : 'accountId' };
}

/**
 * Checks that the caller's reach of `action` holds the patient: otherwise the attempt on an existing patient is
 * recorded (UNAUTHORIZED_ACCESS) and both are answered like a missing patient. Every part of the record (diagnoses,
 * medications, allergies) asks this before reading or writing a patient's entries.
 */
export async function reachRecordPatient(
  scope: Scope,
  action: RecordAction,
  reach: Reach<'clinical-record'>,
  patientId: string,
): Promise<void> {
  const patientReach = recordPatientReach(reach);
  await scope.find(action, patientId, {
    read: (db: Executor) => isVisiblePatient(db, patientId, patientReach),
    exists: (db: Executor) => patientExists(db, patientId),
    missing: 'patientMessages.notFound',
    denial: { patientIds: [patientId] },
  });
}
