import {
  AddDiagnosisInputSchema,
  DiagnosisCodeSearchSchema,
  UpdateDiagnosisInputSchema,
  type DiagnosisStatus,
} from '@telehealth/shared';
import { findIcd10Code, searchIcd10Codes, type Icd10Code } from '@telehealth/shared/icd10cm';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import type { Reach } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { fieldError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  clearOtherPrimary,
  findDiagnosis,
  hasDiagnosisCode,
  insertDiagnosis,
  listDiagnoses,
  listDiagnosisRevisions,
  findDiagnosisRow,
  updateDiagnosis,
  type DiagnosisListRow,
  type DiagnosisRow,
  type DiagnosisRevisionListRow,
  type DiagnosisValues,
} from './diagnoses.repository.ts';
import { entryThroughPatient, reachRecordPatient, recordPatientReach } from './record-access.ts';

export type { DiagnosisListRow, DiagnosisRevisionListRow };

/** How many code suggestions the picker gets at most. */
const CODE_SUGGESTIONS = 20;

/**
 * The problem list (issue 27, decision 062). A provider adds their own patients' diagnoses by ICD-10-CM code
 * (from the product's list, whose official title is filled in, or another well-formed code with a title they
 * write) and changes their status, onset, primary flag and comment; each version is kept. The patient reads their
 * own list; an emergency grant opens it read only; administrators never see it. Every read and change is audited
 * (ids only, never a code or a title).
 */
export class DiagnosesService {
  readonly #db: Database;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; keyring: Keyring }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
  }

  /** The patient's problem list. Audited as a read of their clinical record. */
  async list(caller: Caller, patientId: string): Promise<DiagnosisListRow[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    await reachRecordPatient(scope, 'clinical-record:read', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const rows = await listDiagnoses(tx, this.#keyring, patientId);
      await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
        part: 'diagnoses',
        patientIds: [patientId],
        diagnosisIds: rows.map((r) => r.diagnosis.id),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return rows;
    });
  }

  /**
   * The codes and titles of the patient's problem list, for another domain that has checked its own reach and
   * audits its own read: coding a visit (decision 073) chooses the visit's diagnoses from it. No audit entry here.
   */
  async problemCodesFor(executor: Executor, patientId: string): Promise<{ code: string; title: string }[]> {
    const rows = await listDiagnoses(executor, this.#keyring, patientId);
    return rows.map(({ diagnosis }) => ({ code: diagnosis.code, title: diagnosis.title }));
  }

  /** Every version of one entry, newest first (who changed what, when). Audited. */
  async history(caller: Caller, id: string): Promise<DiagnosisRevisionListRow[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    const { patientId } = await scope.find('clinical-record:read', id, this.#entrySpec(id, reach));
    return this.#db.transaction(async (tx) => {
      const rows = await listDiagnosisRevisions(tx, this.#keyring, id);
      await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
        part: 'diagnosis-history',
        patientIds: [patientId],
        diagnosisIds: [id],
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return rows;
    });
  }

  /** Adds a diagnosis to the provider's own patient's list. */
  async add(caller: Caller, input: unknown): Promise<DiagnosisListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(AddDiagnosisInputSchema, input);
    await reachRecordPatient(scope, 'clinical-record:write', reach, data.patientId);
    const listed = findIcd10Code(data.code);
    const title = listed?.title ?? data.title;
    if (!title) throw fieldError('title', 'clinicalRecordMessages.titleRequired');
    const id = await this.#db.transaction(async (tx) => {
      if (await hasDiagnosisCode(tx, data.patientId, data.code)) {
        throw fieldError('code', 'clinicalRecordMessages.alreadyOnList');
      }
      const unsetPrimary = data.primary
        ? await clearOtherPrimary(tx, this.#keyring, data.patientId, caller.user.id)
        : [];
      const id = await insertDiagnosis(tx, this.#keyring, {
        ...valuesOf(data),
        patientId: data.patientId,
        code: data.code,
        title,
        listed: listed !== null,
        by: caller.user.id,
      });
      await scope.audit(tx, 'DIAGNOSIS_ADD', {
        diagnosisId: id,
        listed: listed !== null,
        patientIds: [data.patientId],
        ...(unsetPrimary.length > 0 ? { primaryMovedFrom: unsetPrimary } : {}),
      });
      return id;
    });
    return (await findDiagnosis(this.#db, this.#keyring, id))!;
  }

  /** Changes an entry's status, onset, primary flag or comment, as its next version. */
  async update(caller: Caller, input: unknown): Promise<DiagnosisListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(UpdateDiagnosisInputSchema, input);
    await scope.transaction(async (tx, scoped) => {
      const row = await scoped.find('clinical-record:write', data.id, this.#entrySpec(data.id, reach, { lock: true }));
      const before = diagnosisValuesOf(row);
      const after = valuesOf(data);
      const changed = (Object.keys(after) as (keyof DiagnosisValues)[]).filter((k) => before[k] !== after[k]);
      if (changed.length === 0) return;
      const unsetPrimary = after.primary
        ? await clearOtherPrimary(tx, this.#keyring, row.patientId, caller.user.id, data.id)
        : [];
      await updateDiagnosis(tx, this.#keyring, data.id, after, caller.user.id);
      await scope.audit(tx, 'DIAGNOSIS_UPDATE', {
        diagnosisId: data.id,
        fields: changed,
        patientIds: [row.patientId],
        ...(unsetPrimary.length > 0 ? { primaryMovedFrom: unsetPrimary } : {}),
      });
    });
    return (await findDiagnosis(this.#db, this.#keyring, data.id))!;
  }

  /** How `Scope.find` reaches one entry: through its patient (record-access.ts). */
  #entrySpec(id: string, reach: Reach<'clinical-record'>, options: { lock?: boolean } = {}) {
    return entryThroughPatient({
      id,
      patientReach: recordPatientReach(reach),
      load: (db, entryId) => findDiagnosisRow(db, this.#keyring, entryId, options),
      exists: (db, entryId) => findDiagnosisRow(db, this.#keyring, entryId),
      missing: 'clinicalRecordMessages.diagnosisNotFound',
      idsKey: 'diagnosisIds',
    });
  }

  /**
   * The product's ICD-10-CM codes matching a search (a code's start or words of its title), for the picker of
   * those who write the record. The list is public reference data: nothing of a patient is read.
   */
  async searchCodes(caller: Caller, search: unknown): Promise<Icd10Code[]> {
    await scopeOf(this.#db, caller).reach('clinical-record:write');
    const query = parseInput(DiagnosisCodeSearchSchema, search);
    return searchIcd10Codes(query, CODE_SUGGESTIONS);
  }
}

function valuesOf(data: {
  status: DiagnosisStatus;
  onsetDate: string | null;
  primary: boolean;
  comment: string | null;
}): DiagnosisValues {
  return { status: data.status, onsetDate: data.onsetDate, primary: data.primary, comment: data.comment };
}

function diagnosisValuesOf(row: DiagnosisRow): DiagnosisValues {
  return valuesOf({ ...row, status: row.status as DiagnosisStatus });
}
