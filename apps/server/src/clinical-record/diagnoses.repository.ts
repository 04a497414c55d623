import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { DiagnosisStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { diagnosesEncrypted, diagnosisRevisionsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userNameOf } from '../users/users.repository.ts';
import { diagnoses, diagnosisRevisions } from './diagnoses.table.ts';

export type DiagnosisRow = typeof diagnoses.$inferSelect;
export type DiagnosisRevisionRow = typeof diagnosisRevisions.$inferSelect;

/** An entry of the problem list with the names of who added it and who last changed it. */
export interface DiagnosisListRow {
  diagnosis: DiagnosisRow;
  createdByName: string;
  updatedByName: string;
}

/** A version of an entry with the name of who wrote it. */
export interface DiagnosisRevisionListRow {
  revision: DiagnosisRevisionRow;
  changedByName: string;
}

/** What a change writes: the entry's fields a provider sets. */
export interface DiagnosisValues {
  status: DiagnosisStatus;
  onsetDate: string | null;
  primary: boolean;
  comment: string | null;
}

/** Current problems first (the primary one at the top), then resolved ones; by code within each. */
const LIST_ORDER = [
  desc(diagnoses.primary),
  asc(sql`CASE ${diagnoses.status} WHEN 'active' THEN 0 WHEN 'rule-out' THEN 1 WHEN 'in-remission' THEN 2 ELSE 3 END`),
  asc(diagnoses.code),
];

function selectList(executor: Executor) {
  return executor
    .select({
      diagnosis: diagnoses,
      createdByName: userNameOf(diagnoses.createdBy),
      updatedByName: userNameOf(diagnoses.updatedBy),
    })
    .from(diagnoses);
}

function openListRow(keyring: Keyring, row: DiagnosisListRow): DiagnosisListRow {
  return { ...row, diagnosis: diagnosesEncrypted.open(keyring, row.diagnosis) };
}

/** The patient's problem list, in the list order, readable. */
export async function listDiagnoses(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
): Promise<DiagnosisListRow[]> {
  const rows = await selectList(executor)
    .where(eq(diagnoses.patientId, patientId))
    .orderBy(...LIST_ORDER);
  return rows.map((row) => openListRow(keyring, row));
}

/** One entry, readable, or undefined. */
export async function findDiagnosis(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<DiagnosisListRow | undefined> {
  const [row] = await selectList(executor).where(eq(diagnoses.id, id));
  return row && openListRow(keyring, row);
}

/** The entry, readable, with its row locked for a change when `lock` (undefined when there is no such entry). */
export async function findDiagnosisRow(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DiagnosisRow | undefined> {
  const query = executor.select().from(diagnoses).where(eq(diagnoses.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row && diagnosesEncrypted.open(keyring, row);
}

/** Whether the patient's list already holds the code. */
export async function hasDiagnosisCode(executor: Executor, patientId: string, code: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: diagnoses.id })
    .from(diagnoses)
    .where(and(eq(diagnoses.patientId, patientId), eq(diagnoses.code, code)));
  return row !== undefined;
}

/**
 * Makes room for a new primary diagnosis, before it is written (one per patient, a unique index): the patient's
 * primary entry other than `exceptId` stops being primary, as a new version of it written by `by`. Answers the
 * ids of the entries changed.
 */
export async function clearOtherPrimary(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
  by: string,
  exceptId: string | null = null,
): Promise<string[]> {
  const others = and(
    eq(diagnoses.patientId, patientId),
    eq(diagnoses.primary, true),
    exceptId ? ne(diagnoses.id, exceptId) : undefined,
  );
  const changed = await executor
    .update(diagnoses)
    .set({ primary: false, version: sql`${diagnoses.version} + 1`, updatedBy: by, updatedAt: new Date() })
    .where(others)
    .returning();
  for (const row of changed) await insertRevision(executor, keyring, diagnosesEncrypted.open(keyring, row), by);
  return changed.map((row) => row.id);
}

/** Adds an entry (version 1) with its first revision. Answers its id. */
export async function insertDiagnosis(
  executor: Executor,
  keyring: Keyring,
  values: DiagnosisValues & { patientId: string; code: string; title: string; listed: boolean; by: string },
): Promise<string> {
  const id = randomUUID();
  const [row] = await executor
    .insert(diagnoses)
    .values({
      ...diagnosesEncrypted.seal(keyring, id, { title: values.title, comment: values.comment }),
      id,
      patientId: values.patientId,
      code: values.code,
      listed: values.listed,
      status: values.status,
      onsetDate: values.onsetDate,
      primary: values.primary,
      createdBy: values.by,
      updatedBy: values.by,
    })
    .returning();
  await insertRevision(executor, keyring, diagnosesEncrypted.open(keyring, row!), values.by);
  return id;
}

/** Writes the entry's new values as its next version, with that revision. */
export async function updateDiagnosis(
  executor: Executor,
  keyring: Keyring,
  id: string,
  values: DiagnosisValues,
  by: string,
): Promise<void> {
  const [row] = await executor
    .update(diagnoses)
    .set({
      ...diagnosesEncrypted.seal(keyring, id, { comment: values.comment }),
      status: values.status,
      onsetDate: values.onsetDate,
      primary: values.primary,
      version: sql`${diagnoses.version} + 1`,
      updatedBy: by,
      updatedAt: new Date(),
    })
    .where(eq(diagnoses.id, id))
    .returning();
  await insertRevision(executor, keyring, diagnosesEncrypted.open(keyring, row!), by);
}

async function insertRevision(executor: Executor, keyring: Keyring, row: DiagnosisRow, by: string): Promise<void> {
  const id = randomUUID();
  await executor.insert(diagnosisRevisions).values({
    ...diagnosisRevisionsEncrypted.seal(keyring, id, { comment: row.comment }),
    id,
    diagnosisId: row.id,
    version: row.version,
    status: row.status,
    onsetDate: row.onsetDate,
    primary: row.primary,
    changedBy: by,
    changedAt: row.updatedAt,
  });
}

/** Every version of the entry, newest first, readable. */
export async function listDiagnosisRevisions(
  executor: Executor,
  keyring: Keyring,
  diagnosisId: string,
): Promise<DiagnosisRevisionListRow[]> {
  const rows = await executor
    .select({ revision: diagnosisRevisions, changedByName: userNameOf(diagnosisRevisions.changedBy) })
    .from(diagnosisRevisions)
    .where(eq(diagnosisRevisions.diagnosisId, diagnosisId))
    .orderBy(desc(diagnosisRevisions.version));
  return rows.map((row) => ({ ...row, revision: diagnosisRevisionsEncrypted.open(keyring, row.revision) }));
}
