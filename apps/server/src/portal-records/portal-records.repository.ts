import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { notes } from '../notes/notes.table.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { noteShares, recordCorrections } from './portal-records.table.ts';
import { recordCorrectionsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userAccounts, userNameOf, userNameOrNullOf } from '../users/users.repository.ts';

// Note shares -----------------------------------------------------------------------------------------------

export async function insertNoteShare(
  executor: Executor,
  values: { noteId: string; patientId: string; sharedBy: string },
): Promise<boolean> {
  const rows = await executor
    .insert(noteShares)
    .values(values)
    .onConflictDoNothing({ target: noteShares.noteId })
    .returning({ noteId: noteShares.noteId });
  return rows.length > 0;
}

export async function deleteNoteShare(executor: Executor, noteId: string): Promise<boolean> {
  const rows = await executor
    .delete(noteShares)
    .where(eq(noteShares.noteId, noteId))
    .returning({ noteId: noteShares.noteId });
  return rows.length > 0;
}

export async function findNoteShare(executor: Executor, noteId: string) {
  const [row] = await executor
    .select({ sharedAt: noteShares.sharedAt, sharedByName: userNameOf(noteShares.sharedBy) })
    .from(noteShares)
    .where(eq(noteShares.noteId, noteId));
  return row;
}

/** When each of these notes was shared with its patient. */
export async function sharedTimesOf(executor: Executor, noteIds: string[]): Promise<Map<string, Date>> {
  if (noteIds.length === 0) return new Map();
  const rows = await executor
    .select({ noteId: noteShares.noteId, sharedAt: noteShares.sharedAt })
    .from(noteShares)
    .where(sql`${noteShares.noteId} = ANY(${sql.param(noteIds)}::uuid[])`);
  return new Map(rows.map((r) => [r.noteId, r.sharedAt]));
}

// Correction requests ---------------------------------------------------------------------------------------

export type CorrectionRow = typeof recordCorrections.$inferSelect;
export interface CorrectionRecord {
  correction: CorrectionRow;
  answeredByName: string | null;
}

export async function insertCorrection(
  executor: Executor,
  keyring: Keyring,
  values: { patientId: string; requestedBy: string; field: string; request: string },
): Promise<CorrectionRow> {
  const id = randomUUID();
  const [row] = await executor
    .insert(recordCorrections)
    .values({ ...values, ...recordCorrectionsEncrypted.seal(keyring, id, { request: values.request }), id })
    .returning();
  return recordCorrectionsEncrypted.open(keyring, row!);
}

/** A patient's correction requests, newest first, with the name of whoever answered. */
export async function correctionsOf(executor: Executor, keyring: Keyring, patientId: string) {
  const rows = await executor
    .select({ correction: recordCorrections, answeredByName: userNameOrNullOf(recordCorrections.answeredBy) })
    .from(recordCorrections)
    .where(eq(recordCorrections.patientId, patientId))
    .orderBy(desc(recordCorrections.createdAt), desc(recordCorrections.id));
  return rows.map((r): CorrectionRecord => ({
    correction: recordCorrectionsEncrypted.open(keyring, r.correction),
    answeredByName: r.answeredByName,
  }));
}

/** One correction request with its patient's primary provider, locked for an answer. */
export async function findCorrectionForUpdate(executor: Executor, id: string) {
  const patient = patientRecords('patient');
  const [row] = await executor
    .select({ correction: recordCorrections, ownerId: patient.ownerId })
    .from(recordCorrections)
    .innerJoin(patient, eq(patient.id, recordCorrections.patientId))
    .where(and(eq(recordCorrections.id, id), isNull(patient.deletedAt)))
    .for('update', { of: recordCorrections });
  return row;
}

export async function answerCorrectionRow(
  executor: Executor,
  keyring: Keyring,
  id: string,
  values: { status: 'accepted' | 'declined'; response: string | null; answeredBy: string },
): Promise<void> {
  await executor
    .update(recordCorrections)
    .set({
      ...recordCorrectionsEncrypted.seal(keyring, id, { response: values.response }),
      status: values.status,
      answeredBy: values.answeredBy,
      answeredAt: new Date(),
    })
    .where(eq(recordCorrections.id, id));
}

// Who viewed my record --------------------------------------------------------------------------------------

export interface AccessLogRow {
  id: string;
  timestamp: string;
  event: string;
  userRole: string;
  actorName: string | null;
  patientCount: number;
}

/**
 * One page of the audit entries that name the patient, made by someone of the practice (providers and
 * administrators; not the patient, not the system), newest first (by entry id: unique and in insertion order),
 * after the cursor. The GIN index on `details->'patientIds'` (jsonb_path_ops) serves the containment: the plan is a
 * bitmap index scan on audit_entries_patient_ids_idx, a bitmap heap scan filtered by source and role, a top-N sort by id and
 * the page's actors looked up by primary key (decision 031). Only the count of the patients an entry names leaves here,
 * never the others' ids.
 */
export async function accessLogPage(
  executor: Executor,
  options: { patientId: string; accountId: string; after: string | null; limit: number },
): Promise<AccessLogRow[]> {
  const named = JSON.stringify([options.patientId]);
  const result = await executor.execute<{
    id: string;
    ts: string;
    event: string;
    user_role: string;
    actor_name: string | null;
    patient_count: number;
  }>(sql`
    SELECT e.id::text AS id, to_char(e.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts,
      e.event, e.user_role, u.name AS actor_name,
      jsonb_array_length(e.details -> 'patientIds')::int AS patient_count
    FROM (
      SELECT a.id, a.timestamp, a.event, a.user_role, a.user_id, a.details
      FROM audit_entries a
      WHERE a.details -> 'patientIds' @> ${named}::jsonb
        AND jsonb_typeof(a.details -> 'patientIds') = 'array'
        -- The server's own record only: a browser may report anything, about anyone (issue 24).
        AND a.source = 'server'
        AND a.user_role IN ('provider', 'admin')
        -- Psychotherapy notes are not the patient's to know of (decision 027). Their entries are sealed and name no
        -- patient in clear; these two conditions keep out any entry written before they were (issue 24).
        AND a.event <> 'PSYCHOTHERAPY_NOTE_ACCESS'
        AND NOT EXISTS (
          SELECT 1 FROM ${notes} n
          WHERE n.is_private
            AND n.id = CASE WHEN a.details ->> 'noteId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              THEN (a.details ->> 'noteId')::uuid END)
        AND a.user_id <> ${options.accountId}
        ${options.after ? sql`AND a.id < ${options.after}::bigint` : sql``}
      ORDER BY a.id DESC
      LIMIT ${options.limit + 1}
    ) e
    -- The page's actors by primary key (an actor id that is not a uuid joins nobody instead of failing the cast).
    LEFT JOIN ${userAccounts('u')} ON u.id = CASE WHEN e.user_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      THEN e.user_id::uuid END
    ORDER BY e.id DESC`);
  return result.rows.map((r) => ({
    id: r.id,
    timestamp: r.ts,
    event: r.event,
    userRole: r.user_role,
    actorName: r.actor_name,
    patientCount: r.patient_count,
  }));
}
