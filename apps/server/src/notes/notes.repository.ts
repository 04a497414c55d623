import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { HIGH_NOTE_PRIORITIES, type NoteCategory, type NotePriority } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { orEmergencyGrants, type EmergencyGrant } from '../access/emergency-grants.ts';
import { noteAddenda, notes, noteUnlocks, noteVersions } from './notes.table.ts';
import { patientIdsOwnedBy, patientRecords } from '../patients/patients.repository.ts';
import { noteShares } from '../portal-records/portal-records.table.ts';
import {
  noteAddendaEncrypted,
  notesEncrypted,
  noteUnlocksEncrypted,
  noteVersionsEncrypted,
} from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userAccounts, userNameOf } from '../users/users.repository.ts';

/**
 * Which notes a caller reaches (decision 027):
 * - `author`: a provider: the notes they wrote, and the notes about their own patients (primary provider) that
 *   are not psychotherapy notes;
 * - `index`: an administrator: every note that is not a psychotherapy note, content withheld by the service;
 * - `shareable` (issue 15, decision 031): what a provider may share with the patient: of the notes they reach as
 *   `author`, the signed ones about a patient, never a psychotherapy note;
 * - `shared` (issue 15): a patient: the signed notes shared with the record linked to their account, never a
 *   psychotherapy note (a shared note that is unlocked, or made private, drops out until signed again).
 */
export type NoteReach =
  // `emergency`: the provider's active emergency access grants (decision 036) add those patients' notes, never a
  // psychotherapy note.
  | { kind: 'author'; callerId: string; emergency?: readonly EmergencyGrant[] }
  | { kind: 'index' }
  | { kind: 'shareable'; callerId: string }
  | { kind: 'shared'; accountId: string };

export interface NoteListFilter {
  category?: NoteCategory | null | undefined;
  priority?: NotePriority | null | undefined;
  patientId?: string | null | undefined;
  status?: 'draft' | 'signed' | null | undefined;
  /** Blind-index tokens the note must hold, all of them. */
  searchTokens?: readonly string[];
}

const signer = userAccounts('signer');
const author = userAccounts('author');
const patient = patientRecords('patient');
const sharedWith = patientRecords('shared_with');

export function reachCondition(reach: NoteReach): SQL {
  if (reach.kind === 'index') return and(isNull(notes.deletedAt), eq(notes.isPrivate, false))!;
  // The two reaches of the portal. Neither ever includes a psychotherapy note or an unsigned one.
  if (reach.kind === 'shareable') {
    return and(
      reachCondition({ kind: 'author', callerId: reach.callerId }),
      eq(notes.isPrivate, false),
      isNotNull(notes.signedAt),
      isNotNull(notes.patientId),
    )!;
  }
  if (reach.kind === 'shared') {
    return and(
      isNull(notes.deletedAt),
      eq(notes.isPrivate, false),
      isNotNull(notes.signedAt),
      sql`${notes.id} IN (SELECT ${noteShares.noteId} FROM ${noteShares}
        JOIN ${sharedWith} ON ${sharedWith.id} = ${noteShares.patientId}
        WHERE ${sharedWith.accountId} = ${reach.accountId} AND ${sharedWith.deletedAt} IS NULL
          AND ${noteShares.patientId} = ${notes.patientId})`,
    )!;
  }
  return and(
    isNull(notes.deletedAt),
    or(
      eq(notes.authorId, reach.callerId),
      and(
        eq(notes.isPrivate, false),
        orEmergencyGrants(
          sql`${notes.patientId} IN ${patientIdsOwnedBy(reach.callerId)}`,
          notes.patientId,
          reach.emergency,
        ),
      ),
    ),
  )!;
}

function filterConditions(filter: NoteListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.category) conditions.push(eq(notes.category, filter.category));
  if (filter.priority) conditions.push(eq(notes.priority, filter.priority));
  if (filter.patientId) conditions.push(eq(notes.patientId, filter.patientId));
  if (filter.status === 'signed') conditions.push(sql`${notes.signedAt} IS NOT NULL`);
  if (filter.status === 'draft') conditions.push(isNull(notes.signedAt));
  if (filter.searchTokens?.length) {
    conditions.push(
      sql`${notes.searchTokens} @> ARRAY[${sql.join(
        filter.searchTokens.map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]`,
    );
  }
  return conditions;
}

const noteSelection = {
  note: notes,
  authorName: author.name,
  signedByName: signer.name,
  patientFirstName: patient.firstName,
  patientLastName: patient.lastName,
  /** The updated time as PostgreSQL writes it (microseconds): the page cursor. */
  cursorTime: sql<string>`${notes.updatedAt}::text`,
  addendumCount: sql<number>`(SELECT count(*) FROM ${noteAddenda} WHERE ${noteAddenda.noteId} = ${notes.id})::int`,
};

export interface NoteRecord {
  note: typeof notes.$inferSelect;
  authorName: string;
  signedByName: string | null;
  patientName: string | null;
  cursorTime: string;
  addendumCount: number;
}

function selectNotes(executor: Executor) {
  return executor
    .select(noteSelection)
    .from(notes)
    .innerJoin(author, eq(author.id, notes.authorId))
    .leftJoin(signer, eq(signer.id, notes.signedBy))
    .leftJoin(patient, eq(patient.id, notes.patientId));
}

function toRecord(keyring: Keyring, row: Awaited<ReturnType<ReturnType<typeof selectNotes>['execute']>>[number]) {
  return {
    note: notesEncrypted.open(keyring, row.note),
    authorName: row.authorName,
    signedByName: row.signedByName,
    patientName: row.patientFirstName === null ? null : `${row.patientFirstName} ${row.patientLastName}`,
    cursorTime: row.cursorTime,
    addendumCount: row.addendumCount,
  } satisfies NoteRecord;
}

/** One page, newest change first, after the cursor (updated time as text, id); one extra row tells if more follow. */
export async function listNotesPage(
  executor: Executor,
  keyring: Keyring,
  options: { reach: NoteReach; filter: NoteListFilter; after: readonly [string, string] | null; limit: number },
): Promise<{ records: NoteRecord[]; next: readonly [string, string] | null }> {
  const { reach, filter, after, limit } = options;
  const conditions = [reachCondition(reach), ...filterConditions(filter)];
  if (after) conditions.push(sql`(${notes.updatedAt}, ${notes.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`);
  const rows = await selectNotes(executor)
    .where(and(...conditions))
    .orderBy(desc(notes.updatedAt), desc(notes.id))
    .limit(limit + 1);
  const records = rows.slice(0, limit).map((row) => toRecord(keyring, row));
  const last = records.at(-1);
  return { records, next: rows.length > limit && last ? [last.cursorTime, last.note.id] : null };
}

/** The specification's stats over every note the caller reaches: Total, Medical, High Priority, Private. */
export async function noteStats(executor: Executor, reach: NoteReach) {
  const [row] = await executor
    .select({
      total: sql<number>`count(*)::int`,
      medical: sql<number>`count(*) FILTER (WHERE ${notes.category} = 'medical')::int`,
      highPriority: sql<number>`count(*) FILTER (WHERE ${inArray(notes.priority, [...HIGH_NOTE_PRIORITIES])})::int`,
      private: sql<number>`count(*) FILTER (WHERE ${notes.isPrivate})::int`,
    })
    .from(notes)
    .where(reachCondition(reach));
  return row ?? { total: 0, medical: 0, highPriority: 0, private: 0 };
}

export async function findNote(
  executor: Executor,
  keyring: Keyring,
  id: string,
  reach: NoteReach,
  options: { lock?: boolean } = {},
): Promise<NoteRecord | undefined> {
  const query = selectNotes(executor).where(and(eq(notes.id, id), reachCondition(reach)));
  const [row] = options.lock ? await query.for('update', { of: notes }) : await query;
  return row && toRecord(keyring, row);
}

/** Whether a (not deleted) note with this id exists for anyone: tells a denial from a miss. */
export async function noteExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: notes.id })
    .from(notes)
    .where(and(eq(notes.id, id), isNull(notes.deletedAt)));
  return row !== undefined;
}

export type NoteValues = Pick<
  typeof notes.$inferInsert,
  'title' | 'content' | 'tags' | 'category' | 'priority' | 'patientId' | 'appointmentId' | 'isPrivate' | 'templateId'
> & { searchTokens: string[]; searchKeyId: string };

/** A new draft. `at`: when it was written (the demo's history); default now. */
export async function insertNote(
  executor: Executor,
  keyring: Keyring,
  values: NoteValues & { authorId: string },
  at?: Date,
): Promise<string> {
  const id = randomUUID();
  await executor
    .insert(notes)
    .values({ ...notesEncrypted.seal(keyring, id, values), id, ...(at ? { createdAt: at, updatedAt: at } : {}) });
  return id;
}

export async function updateNoteRow(executor: Executor, keyring: Keyring, id: string, values: NoteValues) {
  await executor
    .update(notes)
    .set({ ...notesEncrypted.seal(keyring, id, values), updatedAt: new Date() })
    .where(eq(notes.id, id));
}

export async function softDeleteNote(executor: Executor, id: string): Promise<void> {
  await executor.update(notes).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(notes.id, id));
}

/** Signs the draft and keeps the signed version (its own encrypted copy). `signedAt` other than now: the demo's history. */
export async function signNoteRow(
  executor: Executor,
  keyring: Keyring,
  record: { note: Pick<NoteRecord['note'], 'id' | 'version' | 'title' | 'content' | 'tags' | 'category' | 'priority'> },
  signedBy: string,
  signedAt: Date = new Date(),
): Promise<Date> {
  const { note } = record;
  await executor.update(notes).set({ signedAt, signedBy, updatedAt: signedAt }).where(eq(notes.id, note.id));
  const versionId = randomUUID();
  await executor.insert(noteVersions).values({
    ...noteVersionsEncrypted.seal(keyring, versionId, { title: note.title, content: note.content, tags: note.tags }),
    id: versionId,
    noteId: note.id,
    version: note.version,
    category: note.category,
    priority: note.priority,
    signedAt,
    signedBy,
  });
  return signedAt;
}

/** Unlocks a signed note: the reason is kept, the note becomes the next version's draft. */
export async function unlockNoteRow(
  executor: Executor,
  keyring: Keyring,
  record: NoteRecord,
  unlockedBy: string,
  reason: string,
): Promise<void> {
  const id = randomUUID();
  await executor.insert(noteUnlocks).values({
    ...noteUnlocksEncrypted.seal(keyring, id, { reason }),
    id,
    noteId: record.note.id,
    version: record.note.version,
    unlockedBy,
  });
  await executor
    .update(notes)
    .set({ signedAt: null, signedBy: null, version: sql`${notes.version} + 1`, updatedAt: new Date() })
    .where(eq(notes.id, record.note.id));
}

export async function hasSignedVersion(executor: Executor, noteId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: noteVersions.id })
    .from(noteVersions)
    .where(eq(noteVersions.noteId, noteId))
    .limit(1);
  return row !== undefined;
}

export async function insertAddendum(
  executor: Executor,
  keyring: Keyring,
  values: { noteId: string; noteVersion: number; authorId: string; content: string; signedAt?: Date },
) {
  const id = randomUUID();
  const [row] = await executor
    .insert(noteAddenda)
    .values({ ...values, ...noteAddendaEncrypted.seal(keyring, id, { content: values.content }), id })
    .returning();
  return row!;
}

/** A note's addenda, oldest first, with their authors' names. */
export async function addendaOf(executor: Executor, keyring: Keyring, noteId: string) {
  const rows = await executor
    .select({ addendum: noteAddenda, authorName: userNameOf(noteAddenda.authorId) })
    .from(noteAddenda)
    .where(eq(noteAddenda.noteId, noteId))
    .orderBy(asc(noteAddenda.signedAt), asc(noteAddenda.id));
  return rows.map((r) => ({ ...noteAddendaEncrypted.open(keyring, r.addendum), authorName: r.authorName }));
}

/** Every signed version and unlock of a note, oldest first. */
export async function historyOf(executor: Executor, keyring: Keyring, noteId: string) {
  const versions = await executor
    .select({ version: noteVersions, signedByName: userNameOf(noteVersions.signedBy) })
    .from(noteVersions)
    .where(eq(noteVersions.noteId, noteId))
    .orderBy(asc(noteVersions.version));
  const unlocks = await executor
    .select({ unlock: noteUnlocks, unlockedByName: userNameOf(noteUnlocks.unlockedBy) })
    .from(noteUnlocks)
    .where(eq(noteUnlocks.noteId, noteId))
    .orderBy(asc(noteUnlocks.version));
  return {
    versions: versions.map((v) => ({
      ...noteVersionsEncrypted.open(keyring, v.version),
      signedByName: v.signedByName,
    })),
    unlocks: unlocks.map((u) => ({
      ...noteUnlocksEncrypted.open(keyring, u.unlock),
      unlockedByName: u.unlockedByName,
    })),
  };
}

/** Notes whose search index was made with another key (or none), a batch at a time. */
export async function notesToReindex(executor: Executor, keyring: Keyring, keyId: string, limit: number) {
  const rows = await executor
    .select({ id: notes.id, title: notes.title, content: notes.content, tags: notes.tags })
    .from(notes)
    .where(sql`${notes.searchKeyId} <> ${keyId}`)
    .orderBy(asc(notes.id))
    .limit(limit);
  return rows.map((row) => notesEncrypted.open(keyring, row));
}

export async function setSearchTokens(executor: Executor, id: string, tokens: string[], keyId: string) {
  // A signed note's index is rewritten under the same flag as a re-encryption (the lock's trigger allows it).
  await executor.execute(sql`SELECT set_config('telehealth.reencrypt', 'on', true)`);
  await executor.update(notes).set({ searchTokens: tokens, searchKeyId: keyId }).where(eq(notes.id, id));
}
