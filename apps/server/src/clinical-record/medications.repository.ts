import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { MedicationEventKind, MedicationStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { medicationEventsEncrypted, medicationsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { notes } from '../notes/notes.table.ts';
import { userNameOf } from '../users/users.repository.ts';
import { diagnoses } from './diagnoses.table.ts';
import { medicationEvents, medications } from './medications.table.ts';

export type MedicationRow = typeof medications.$inferSelect;
export type MedicationEventRow = typeof medicationEvents.$inferSelect;

/** A dose as stored: the structured sig's fields. */
export interface DoseValues {
  strength: string | null;
  doseAmount: number;
  doseUnit: string;
  route: string;
  frequency: string;
  asNeeded: boolean;
  asNeededReason: string | null;
}

/** An event with the name of who recorded it. */
export interface MedicationEventListRow {
  event: MedicationEventRow;
  recordedByName: string;
}

/** A medication with its indication's code and its history, oldest event first. */
export interface MedicationListRow {
  medication: MedicationRow;
  indicationCode: string | null;
  events: MedicationEventListRow[];
}

/** Active first, then held, then stopped; by start date, newest first, within each. */
const LIST_ORDER = [
  asc(sql`CASE ${medications.status} WHEN 'active' THEN 0 WHEN 'held' THEN 1 ELSE 2 END`),
  desc(medications.startDate),
  asc(medications.createdAt),
];

async function withEvents(
  executor: Executor,
  keyring: Keyring,
  rows: { medication: MedicationRow; indicationCode: string | null }[],
): Promise<MedicationListRow[]> {
  if (rows.length === 0) return [];
  const events = await executor
    .select({ event: medicationEvents, recordedByName: userNameOf(medicationEvents.recordedBy) })
    .from(medicationEvents)
    .where(
      inArray(
        medicationEvents.medicationId,
        rows.map((r) => r.medication.id),
      ),
    )
    .orderBy(asc(medicationEvents.medicationId), asc(medicationEvents.sequence));
  const byMedication = new Map<string, MedicationEventListRow[]>();
  for (const row of events) {
    const list = byMedication.get(row.event.medicationId) ?? [];
    list.push({ ...row, event: medicationEventsEncrypted.open(keyring, row.event) });
    byMedication.set(row.event.medicationId, list);
  }
  return rows.map((row) => ({
    medication: medicationsEncrypted.open(keyring, row.medication),
    indicationCode: row.indicationCode,
    events: byMedication.get(row.medication.id) ?? [],
  }));
}

function selectMedications(executor: Executor) {
  return executor
    .select({ medication: medications, indicationCode: diagnoses.code })
    .from(medications)
    .leftJoin(diagnoses, eq(diagnoses.id, medications.indicationId));
}

/** The patient's medications with their histories, in the list order, readable. */
export async function listMedications(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
): Promise<MedicationListRow[]> {
  const rows = await selectMedications(executor)
    .where(eq(medications.patientId, patientId))
    .orderBy(...LIST_ORDER);
  return withEvents(executor, keyring, rows);
}

/** One medication with its history, readable, or undefined. */
export async function findMedication(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<MedicationListRow | undefined> {
  const rows = await selectMedications(executor).where(eq(medications.id, id));
  const [row] = await withEvents(executor, keyring, rows);
  return row;
}

/** The medication's row, readable, locked for a change when `lock`. */
export async function findMedicationRow(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<MedicationRow | undefined> {
  const query = executor.select().from(medications).where(eq(medications.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row && medicationsEncrypted.open(keyring, row);
}

/** Whether the diagnosis is one of the patient's (a medication's indication). */
export async function isDiagnosisOfPatient(executor: Executor, diagnosisId: string, patientId: string) {
  const [row] = await executor
    .select({ id: diagnoses.id })
    .from(diagnoses)
    .where(and(eq(diagnoses.id, diagnosisId), eq(diagnoses.patientId, patientId)));
  return row !== undefined;
}

/** Whether the note is one the author wrote about the patient, not deleted (a medication change made from it). */
export async function isNoteOfAuthorAbout(executor: Executor, noteId: string, authorId: string, patientId: string) {
  const [row] = await executor
    .select({ id: notes.id })
    .from(notes)
    .where(
      and(eq(notes.id, noteId), eq(notes.authorId, authorId), eq(notes.patientId, patientId), isNull(notes.deletedAt)),
    );
  return row !== undefined;
}

async function insertEvent(
  executor: Executor,
  keyring: Keyring,
  values: {
    medicationId: string;
    kind: MedicationEventKind;
    effectiveDate: string;
    dose: DoseValues | null;
    reason: string | null;
    noteId: string | null;
    by: string;
  },
): Promise<string> {
  const id = randomUUID();
  const sequence = sql`(SELECT coalesce(max(${medicationEvents.sequence}), 0) + 1 FROM ${medicationEvents} WHERE ${eq(
    medicationEvents.medicationId,
    values.medicationId,
  )})`;
  await executor.insert(medicationEvents).values({
    ...medicationEventsEncrypted.seal(keyring, id, {
      reason: values.reason,
      asNeededReason: values.dose?.asNeededReason ?? null,
    }),
    id,
    medicationId: values.medicationId,
    sequence,
    kind: values.kind,
    effectiveDate: values.effectiveDate,
    strength: values.dose?.strength ?? null,
    doseAmount: values.dose?.doseAmount ?? null,
    doseUnit: values.dose?.doseUnit ?? null,
    route: values.dose?.route ?? null,
    frequency: values.dose?.frequency ?? null,
    asNeeded: values.dose?.asNeeded ?? null,
    noteId: values.noteId,
    recordedBy: values.by,
  });
  return id;
}

/** A new medication of the patient, active from its start date, with its `started` event. Answers its id. */
export async function insertMedication(
  executor: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    drugName: string;
    brandName: string | null;
    drugClass: string | null;
    listed: boolean;
    controlledSchedule: string | null;
    form: string | null;
    dose: DoseValues;
    quantity: number | null;
    refills: number | null;
    prescriber: string | null;
    indicationId: string | null;
    startDate: string;
    reason: string | null;
    noteId: string | null;
    by: string;
  },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(medications).values({
    ...medicationsEncrypted.seal(keyring, id, {
      drugName: values.drugName,
      brandName: values.brandName,
      prescriber: values.prescriber,
      asNeededReason: values.dose.asNeededReason,
    }),
    id,
    patientId: values.patientId,
    drugClass: values.drugClass,
    listed: values.listed,
    controlledSchedule: values.controlledSchedule,
    form: values.form,
    strength: values.dose.strength,
    doseAmount: values.dose.doseAmount,
    doseUnit: values.dose.doseUnit,
    route: values.dose.route,
    frequency: values.dose.frequency,
    asNeeded: values.dose.asNeeded,
    quantity: values.quantity,
    refills: values.refills,
    indicationId: values.indicationId,
    status: 'active',
    startDate: values.startDate,
    lastChangeDate: values.startDate,
    createdBy: values.by,
  });
  await insertEvent(executor, keyring, {
    medicationId: id,
    kind: 'started',
    effectiveDate: values.startDate,
    dose: values.dose,
    reason: values.reason,
    noteId: values.noteId,
    by: values.by,
  });
  return id;
}

/** Records one change: the medication's new status (and dose, for a dose change) and the event that says so. */
export async function recordMedicationChange(
  executor: Executor,
  keyring: Keyring,
  values: {
    medicationId: string;
    kind: Exclude<MedicationEventKind, 'started'>;
    status: MedicationStatus;
    effectiveDate: string;
    dose: DoseValues | null;
    reason: string | null;
    noteId: string | null;
    by: string;
  },
): Promise<void> {
  const dose = values.dose;
  await executor
    .update(medications)
    .set({
      ...(dose
        ? {
            ...medicationsEncrypted.seal(keyring, values.medicationId, { asNeededReason: dose.asNeededReason }),
            strength: dose.strength,
            doseAmount: dose.doseAmount,
            doseUnit: dose.doseUnit,
            route: dose.route,
            frequency: dose.frequency,
            asNeeded: dose.asNeeded,
          }
        : {}),
      status: values.status,
      lastChangeDate: values.effectiveDate,
      updatedAt: new Date(),
    })
    .where(eq(medications.id, values.medicationId));
  await insertEvent(executor, keyring, values);
}

/**
 * A medication the patient reported in an accepted intake (decision 067): active from the acceptance, with the
 * dose as the patient wrote it and no structured dose, no `started` event (the practice did not start it).
 */
export async function insertReportedMedication(
  executor: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    drugName: string;
    drugClass: string | null;
    listed: boolean;
    controlledSchedule: string | null;
    reportedDose: string | null;
    startDate: string;
    by: string;
  },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(medications).values({
    ...medicationsEncrypted.seal(keyring, id, { drugName: values.drugName, reportedDose: values.reportedDose }),
    id,
    patientId: values.patientId,
    drugClass: values.drugClass,
    listed: values.listed,
    controlledSchedule: values.controlledSchedule,
    source: 'patient',
    status: 'active',
    startDate: values.startDate,
    lastChangeDate: values.startDate,
    createdBy: values.by,
  });
  return id;
}

/** The drug names of the patient's medications not stopped, readable. */
export async function findCurrentDrugNames(executor: Executor, keyring: Keyring, patientId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: medications.id, drugName: medications.drugName })
    .from(medications)
    .where(and(eq(medications.patientId, patientId), sql`${medications.status} <> 'stopped'`));
  return rows.map((row) => medicationsEncrypted.decryptValue(keyring, row.id, 'drugName', row.drugName));
}
