import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { notes } from '../notes/notes.table.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { visitCodingLines } from './billing.table.ts';

// What coding a visit reads beside the billing tables (decision 073): the visit with who owns its patient, and
// whether its note is signed (only whether: nothing in billing reads a note's content).

/** A visit as coding reads it: its people, type, state and date, and its patient's owners (for the reach). */
export interface VisitForCoding {
  id: string;
  patientId: string;
  providerId: string;
  appointmentType: 'in-person' | 'video';
  status: string;
  startsAt: Date;
  patientOwnerId: string | null;
  patientAccountId: string | null;
}

/** The visit (its patient record not deleted), locked with `lock`; undefined when there is none. */
const patient = patientRecords('patient');

export async function findVisitForCoding(
  executor: Executor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<VisitForCoding | undefined> {
  const query = executor
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      providerId: appointments.providerId,
      appointmentType: appointments.appointmentType,
      status: appointments.status,
      startsAt: appointments.startsAt,
      patientOwnerId: patient.ownerId,
      patientAccountId: patient.accountId,
    })
    .from(appointments)
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .where(and(eq(appointments.id, id), isNull(patient.deletedAt)));
  const [row] = options.lock ? await query.for('update', { of: appointments }) : await query;
  return row && { ...row, appointmentType: row.appointmentType as VisitForCoding['appointmentType'] };
}

/** Whether a signed note (not deleted) is linked to the visit. */
export async function hasSignedNote(executor: Executor, appointmentId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: notes.id })
    .from(notes)
    .where(and(eq(notes.appointmentId, appointmentId), isNotNull(notes.signedAt), isNull(notes.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/** The patient's owners (primary provider, linked account), or undefined for a missing or deleted patient. */
export async function findPatientOwners(
  executor: Executor,
  patientId: string,
): Promise<{ patientOwnerId: string | null; patientAccountId: string | null } | undefined> {
  const [row] = await executor
    .select({ patientOwnerId: patient.ownerId, patientAccountId: patient.accountId })
    .from(patient)
    .where(and(eq(patient.id, patientId), isNull(patient.deletedAt)));
  return row;
}

/** The code and modifiers of these coding lines, by id (a charge shows its line's). */
export async function findLineCodes(
  executor: Executor,
  ids: readonly string[],
): Promise<Map<string, { code: string; modifiers: string[] }>> {
  if (ids.length === 0) return new Map();
  const rows = await executor
    .select({ id: visitCodingLines.id, code: visitCodingLines.code, modifiers: visitCodingLines.modifiers })
    .from(visitCodingLines)
    .where(inArray(visitCodingLines.id, [...ids]));
  return new Map(rows.map((row) => [row.id, { code: row.code, modifiers: row.modifiers }]));
}
