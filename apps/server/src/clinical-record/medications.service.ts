import {
  reportedMedicationKey,
  type IntakeMedication,
  ChangeMedicationInputSchema,
  findCatalogueDrug,
  medicationWarnings,
  StartMedicationInputSchema,
  todayIsoDate,
  type DrugClass,
  type MedicationChangeKind,
  type MedicationStatus,
  type MedicationWarning,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  findCurrentDrugNames,
  findMedication,
  findMedicationRow,
  insertMedication,
  insertReportedMedication,
  isDiagnosisOfPatient,
  isNoteOfAuthorAbout,
  listMedications,
  recordMedicationChange,
  type DoseValues,
  type MedicationListRow,
} from './medications.repository.ts';
import { entryThroughPatient, reachRecordPatient, recordPatientReach } from './record-access.ts';

export type { MedicationListRow };

/** A patient's medication list with the class screen's warnings on the active ones. */
export interface MedicationList {
  medications: MedicationListRow[];
  warnings: MedicationWarning[];
}

/** What each change makes of a medication's status, from the statuses it may come from. */
const TRANSITIONS: Record<MedicationChangeKind, { from: readonly MedicationStatus[]; to: MedicationStatus | null }> = {
  'dose-changed': { from: ['active', 'held'], to: null },
  held: { from: ['active'], to: 'held' },
  resumed: { from: ['held'], to: 'active' },
  stopped: { from: ['active', 'held'], to: 'stopped' },
};

/**
 * The medication list (issue 27, decision 062). A provider starts a medication for their own patient (from the
 * catalogue, whose class and schedule are filled in, or typed with a class of their choosing), with a structured
 * dose, quantity, refills, prescriber and indication (one of the patient's diagnoses); then records each change as a
 * dated event with its reason: a new dose, held, resumed, stopped; from a note, the note is linked. The list
 * carries the class screen's warnings (two active drugs of one class, known dangerous class combinations). The
 * patient reads their own; an emergency grant opens it read only; administrators never see it. Every read and change
 * is audited with ids only.
 */
export class MedicationsService {
  readonly #db: Database;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; keyring: Keyring }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
  }

  /**
   * The patient's medications, active first, each with its history; and the warnings. Audited as a read, or with
   * `purpose: 'print'` as the printing of the medication list (PHI_PRINT).
   */
  async list(caller: Caller, patientId: string, options: { purpose?: 'view' | 'print' } = {}): Promise<MedicationList> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    await reachRecordPatient(scope, 'clinical-record:read', reach, patientId);
    const rows = await this.#db.transaction(async (tx) => {
      const rows = await listMedications(tx, this.#keyring, patientId);
      await scope.audit(tx, options.purpose === 'print' ? 'PHI_PRINT' : 'CLINICAL_RECORD_VIEW', {
        part: options.purpose === 'print' ? 'medication-list' : 'medications',
        patientIds: [patientId],
        medicationIds: rows.map((r) => r.medication.id),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return rows;
    });
    return { medications: rows, warnings: warningsOf(rows) };
  }

  /** Starts a medication for the provider's own patient. */
  async start(caller: Caller, input: unknown): Promise<MedicationListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(StartMedicationInputSchema, input);
    await reachRecordPatient(scope, 'clinical-record:write', reach, data.patientId);
    const catalogued = findCatalogueDrug(data.drugName);
    const id = await this.#db.transaction(async (tx) => {
      if (data.indicationId && !(await isDiagnosisOfPatient(tx, data.indicationId, data.patientId))) {
        throw fieldError('indicationId', 'clinicalRecordMessages.indicationNotPatients');
      }
      await this.#checkNote(tx, caller, data.noteId, data.patientId);
      const id = await insertMedication(tx, this.#keyring, {
        patientId: data.patientId,
        drugName: catalogued?.generic ?? data.drugName,
        brandName: data.brandName,
        drugClass: data.drugClass ?? catalogued?.drugClass ?? null,
        listed: catalogued !== null,
        controlledSchedule: catalogued?.controlledSchedule ?? null,
        form: data.form,
        dose: doseOf(data),
        quantity: data.quantity,
        refills: data.refills,
        prescriber: data.prescriber,
        indicationId: data.indicationId,
        startDate: data.startDate ?? todayIsoDate(),
        reason: data.reason,
        noteId: data.noteId,
        by: caller.user.id,
      });
      await scope.audit(tx, 'MEDICATION_START', {
        medicationId: id,
        listed: catalogued !== null,
        patientIds: [data.patientId],
        ...(data.noteId ? { noteId: data.noteId } : {}),
      });
      return id;
    });
    return (await findMedication(this.#db, this.#keyring, id))!;
  }

  /** Records a change of a medication: a new dose, held, resumed or stopped, dated, with its reason. */
  async change(caller: Caller, input: unknown): Promise<MedicationListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(ChangeMedicationInputSchema, input);
    await scope.transaction(async (tx, scoped) => {
      const row = await scoped.find('clinical-record:write', data.id, this.#entrySpec(data.id, reach, { lock: true }));
      const status = row.status as MedicationStatus;
      const transition = TRANSITIONS[data.kind];
      if (!transition.from.includes(status)) {
        if (status === 'stopped') throw badUserInput('clinicalRecordMessages.stoppedCannotChange');
        throw badUserInput(
          data.kind === 'held' ? 'clinicalRecordMessages.alreadyHeld' : 'clinicalRecordMessages.notHeld',
        );
      }
      const effectiveDate = data.effectiveDate ?? todayIsoDate();
      if (effectiveDate < row.lastChangeDate) {
        throw fieldError(
          'effectiveDate',
          row.lastChangeDate === row.startDate
            ? 'clinicalRecordMessages.dateBeforeStart'
            : 'clinicalRecordMessages.dateBeforeLastChange',
          { date: row.lastChangeDate },
        );
      }
      await this.#checkNote(tx, caller, data.noteId, row.patientId);
      await recordMedicationChange(tx, this.#keyring, {
        medicationId: row.id,
        kind: data.kind,
        status: transition.to ?? status,
        effectiveDate,
        dose: data.dose ? doseOf(data.dose) : null,
        reason: data.reason,
        noteId: data.noteId,
        by: caller.user.id,
      });
      await scope.audit(tx, 'MEDICATION_CHANGE', {
        medicationId: row.id,
        change: data.kind,
        patientIds: [row.patientId],
        ...(data.noteId ? { noteId: data.noteId } : {}),
      });
    });
    return (await findMedication(this.#db, this.#keyring, data.id))!;
  }

  /**
   * Adds the medications a patient reported in an intake the provider accepts (decision 067), in the acceptance's
   * transaction: each with the source "reported by patient" and the dose as written. One that matches a medication
   * on the list (not stopped) by its catalogue drug, or by its name when typed, is skipped; nothing on the list is
   * changed. Each addition is audited (MEDICATION_START, ids only). Answers the ids added and the names skipped.
   */
  async addReported(
    tx: Executor,
    scope: Pick<Scope, 'audit'>,
    values: { patientId: string; intakeId: string; medications: readonly IntakeMedication[]; by: string },
  ): Promise<{ added: string[]; skipped: string[] }> {
    const keys = new Set(
      (await findCurrentDrugNames(tx, this.#keyring, values.patientId)).map((name) =>
        reportedMedicationKey(name, findCatalogueDrug(name)?.generic ?? null),
      ),
    );
    const added: string[] = [];
    const skipped: string[] = [];
    for (const reported of values.medications) {
      const catalogued = findCatalogueDrug(reported.name);
      const key = reportedMedicationKey(reported.name, catalogued?.generic ?? null);
      if (keys.has(key)) {
        skipped.push(reported.name);
        continue;
      }
      keys.add(key);
      const dose = [reported.dose, reported.frequency].filter((part) => part).join(', ');
      const id = await insertReportedMedication(tx, this.#keyring, {
        patientId: values.patientId,
        drugName: catalogued?.generic ?? reported.name,
        drugClass: catalogued?.drugClass ?? null,
        listed: catalogued !== null,
        controlledSchedule: catalogued?.controlledSchedule ?? null,
        reportedDose: dose || null,
        startDate: todayIsoDate(),
        by: values.by,
      });
      await scope.audit(tx, 'MEDICATION_START', {
        medicationId: id,
        listed: catalogued !== null,
        source: 'patient',
        intakeId: values.intakeId,
        patientIds: [values.patientId],
      });
      added.push(id);
    }
    return { added, skipped };
  }

  /** A change made from a note links it: the note must be the caller's own, about the same patient. */
  async #checkNote(tx: Executor, caller: Caller, noteId: string | null, patientId: string) {
    if (noteId && !(await isNoteOfAuthorAbout(tx, noteId, caller.user.id, patientId))) {
      throw fieldError('noteId', 'clinicalRecordMessages.noteNotPatients');
    }
  }

  /** How `Scope.find` reaches one medication: through its patient (record-access.ts). */
  #entrySpec(id: string, reach: Reach<'clinical-record'>, options: { lock?: boolean } = {}) {
    return entryThroughPatient({
      id,
      patientReach: recordPatientReach(reach),
      load: (db, entryId) => findMedicationRow(db, this.#keyring, entryId, options),
      exists: (db, entryId) => findMedicationRow(db, this.#keyring, entryId),
      missing: 'clinicalRecordMessages.medicationNotFound',
      idsKey: 'medicationIds',
    });
  }
}

function doseOf(dose: {
  strength: string | null;
  doseAmount: number;
  doseUnit: string;
  route: string;
  frequency: string;
  asNeeded: boolean;
  asNeededReason: string | null;
}): DoseValues {
  return {
    strength: dose.strength,
    doseAmount: dose.doseAmount,
    doseUnit: dose.doseUnit,
    route: dose.route,
    frequency: dose.frequency,
    asNeeded: dose.asNeeded,
    asNeededReason: dose.asNeeded ? dose.asNeededReason : null,
  };
}

/** The class screen over the medications being taken (held ones included: they are meant to be resumed). */
function warningsOf(rows: readonly MedicationListRow[]): MedicationWarning[] {
  return medicationWarnings(
    rows
      .filter((r) => r.medication.status !== 'stopped')
      .map((r) => ({
        id: r.medication.id,
        generic: r.medication.drugName,
        drugClass: r.medication.drugClass as DrugClass | null,
      })),
  );
}
