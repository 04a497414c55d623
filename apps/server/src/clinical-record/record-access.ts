import type { Reach } from '../access/authorize.ts';
import type { FindByReach, Scope } from '../access/scope.ts';
import type { MessageId } from '@telehealth/shared';
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

/**
 * How `Scope.find` reaches one entry of the record (a diagnosis, a medication, an allergy, a plan): `load` reads it
 * (locked, if the caller asks so), and it is the caller's when its patient is in `patientReach`. An entry of another
 * patient is recorded (`idsKey` names its id beside `patientIds`) and answered `missing`, like one that is not there.
 * `exists` reads the entry whatever the reach (by default, `load`).
 */
export function entryThroughPatient<T extends { patientId: string }, E extends { patientId: string } = T>(spec: {
  id: string;
  patientReach: Reach<'patient'>;
  load: (executor: Executor, id: string) => Promise<T | undefined>;
  exists?: (executor: Executor, id: string) => Promise<E | undefined>;
  missing: MessageId;
  idsKey: string;
}): FindByReach<T, E> {
  const { id, patientReach, load, missing, idsKey } = spec;
  const exists = spec.exists ?? (load as unknown as (executor: Executor, id: string) => Promise<E | undefined>);
  return {
    read: async (db) => {
      const row = await load(db, id);
      return row && (await isVisiblePatient(db, row.patientId, patientReach)) ? row : undefined;
    },
    exists: (db) => exists(db, id),
    missing,
    denial: (existing) => ({ [idsKey]: [id], patientIds: [existing.patientId] }),
  };
}
