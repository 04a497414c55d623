import {
  AnswerCorrectionInputSchema,
  CORRECTION_RESPONSE_DAYS,
  CorrectionRequestInputSchema,
  MAX_PAGE_SIZE,
  RECORD_ACCESS_PAGE_SIZE,
  recordAccessKind,
  type RecordAccessKind,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { sealAuditDetails } from '../audit/sealed-details.ts';
import type { Database, Executor } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { badUserInput, notFound, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { recordCorrectionWaitingMail } from '../mail/templates.ts';
import { addendaOf, findNote, listNotesPage, noteExists, type NoteRecord } from '../notes/notes.repository.ts';
import { findLinkedPatient } from '../patients/patient-accounts.repository.ts';
import { findPatientOwnerIds, patientExists } from '../patients/patients.repository.ts';
import { activeUsersContact } from '../users/users.repository.ts';
import type { PatientsService } from '../patients/patients.service.ts';
import {
  accessLogPage,
  answerCorrectionRow,
  correctionsOf,
  deleteNoteShare,
  findCorrectionForUpdate,
  findNoteShare,
  insertCorrection,
  insertNoteShare,
  sharedTimesOf,
  type CorrectionRecord,
} from './portal-records.repository.ts';

/** A shared note as the patient reads it (with `addenda` when read one at a time). */
export interface SharedNoteView {
  record: NoteRecord;
  sharedAt: Date | null;
  addenda: Awaited<ReturnType<typeof addendaOf>> | null;
}

export interface RecordAccessEntry {
  id: string;
  timestamp: string;
  kind: RecordAccessKind;
  /** The person's name and role; null for an entry shown only as "your name appeared in a list". */
  actorName: string | null;
  actorRole: string;
}

/**
 * The patient portal's records (issue 15, decision 031): the patient's own record read-only, the notes a provider
 * shared with them (and the provider's sharing), correction requests and their answers, and "Who viewed my
 * record" from the audit trail. Every operation asks the access checkpoint first and is audited in its transaction.
 */
export class PortalRecordsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #patients: PatientsService;
  readonly #noteCursors: CursorCodec<readonly [string, string]>;
  readonly #logCursors: CursorCodec<readonly [string]>;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    secret: string;
    mail: MailService;
    patients: PatientsService;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#patients = options.patients;
    this.#noteCursors = new CursorCodec(`${options.secret}:shared-notes`, 2);
    this.#logCursors = new CursorCodec(`${options.secret}:record-access`, 1);
  }

  /** The patient's own record (read only; `patient:read:own`), recorded as any read of it (PATIENT_VIEW). */
  async myRecord(caller: Caller) {
    await authorize(this.#db, caller, 'patient:read', { message: 'patientMessages.cannotViewOne' });
    const linked = await findLinkedPatient(this.#db, caller.user.id);
    if (!linked) throw notFound('portalRecordMessages.noRecord');
    return this.#patients.get(caller, linked.id);
  }

  // Shared notes -------------------------------------------------------------------------------------------

  /** The notes shared with the signed-in patient, newest change first: titles and dates (a list shows no content). */
  async sharedNotes(caller: Caller, args: { limit?: number | null; nextToken?: string | null }) {
    const reach = await authorize(this.#db, caller, 'shared-note:read');
    const limit = Math.min(Math.max(args.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#noteCursors.decode(args.nextToken) : null;
    return this.#db.transaction(async (tx) => {
      const page = await listNotesPage(tx, this.#keyring, {
        reach: { kind: 'shared', accountId: reach.kind === 'own' ? reach.callerId : caller.user.id },
        filter: {},
        after,
        limit,
      });
      const shared = await sharedTimesOf(
        tx,
        page.records.map((r) => r.note.id),
      );
      await scopeOf(this.#db, caller).audit(tx, 'MEDICAL_RECORD_ACCESS', {
        noteIds: page.records.map((r) => r.note.id),
        patientIds: [...new Set(page.records.flatMap((r) => (r.note.patientId ? [r.note.patientId] : [])))],
        contentShown: 0,
        shared: true,
        page: after ? 'next' : 'first',
      });
      const items: SharedNoteView[] = page.records.map((record) => ({
        record,
        sharedAt: shared.get(record.note.id) ?? null,
        addenda: null,
      }));
      return { items, nextToken: page.next ? this.#noteCursors.encode(page.next) : null };
    });
  }

  /** One shared note with its signed addenda; every reading is a MEDICAL_RECORD_ACCESS. */
  async sharedNote(caller: Caller, id: string): Promise<SharedNoteView> {
    const reach = await authorize(this.#db, caller, 'shared-note:read');
    const accountId = reach.kind === 'own' ? reach.callerId : caller.user.id;
    const record = await scopeOf(this.#db, caller).find('shared-note:read', id, {
      read: (db) => findNote(db, this.#keyring, id, { kind: 'shared', accountId }),
      exists: (db) => noteExists(db, id),
      missing: 'portalRecordMessages.sharedNoteNotFound',
      denial: { noteIds: [id] },
    });
    return this.#db.transaction(async (tx) => {
      const addenda = await addendaOf(tx, this.#keyring, id);
      const shared = await sharedTimesOf(tx, [id]);
      await scopeOf(this.#db, caller).audit(tx, 'MEDICAL_RECORD_ACCESS', {
        noteId: id,
        patientIds: record.note.patientId ? [record.note.patientId] : [],
        contentShown: true,
        shared: true,
      });
      return { record, sharedAt: shared.get(id) ?? null, addenda };
    });
  }

  /**
   * A provider shares a signed note with its patient (`note:share`). Only what `reachCondition`'s `shareable` reach
   * holds can be shared: a psychotherapy note or a draft is refused with its reason, another's note is not found.
   */
  async shareNote(caller: Caller, noteId: string) {
    const reach = await authorize(this.#db, caller, 'note:share');
    const callerId = reach.kind === 'own' ? reach.callerId : caller.user.id;
    const scope = scopeOf(this.#db, caller);
    await scope.transaction(async (tx, scoped) => {
      const record = await scoped.find('note:share', noteId, {
        read: (db) => findNote(db, this.#keyring, noteId, { kind: 'shareable', callerId }, { lock: true }),
        exists: async (db) => {
          // A note of the caller's own that cannot be shared is refused with its reason.
          const readable = await findNote(db, this.#keyring, noteId, { kind: 'author', callerId });
          if (readable?.note.isPrivate) throw badUserInput('portalRecordMessages.psychotherapyNeverShared');
          if (readable) throw badUserInput('portalRecordMessages.shareSignedOnly');
          return noteExists(db, noteId);
        },
        missing: 'noteMessages.notFound',
        denial: { noteIds: [noteId] },
      });
      const patientId = record.note.patientId!;
      const added = await insertNoteShare(tx, { noteId, patientId, sharedBy: caller.user.id });
      if (added) await scope.audit(tx, 'NOTE_SHARE', { noteId, patientIds: [patientId] });
    });
    return this.noteSharing(caller, noteId);
  }

  /** Stops sharing a note with its patient (from then on the patient no longer reads it). */
  async unshareNote(caller: Caller, noteId: string) {
    const reach = await authorize(this.#db, caller, 'note:share');
    const callerId = reach.kind === 'own' ? reach.callerId : caller.user.id;
    const scope = scopeOf(this.#db, caller);
    await scope.transaction(async (tx, scoped) => {
      const record = await scoped.find('note:share', noteId, {
        read: (db) => findNote(db, this.#keyring, noteId, { kind: 'author', callerId }, { lock: true }),
        exists: (db) => noteExists(db, noteId),
        missing: 'noteMessages.notFound',
        denial: { noteIds: [noteId] },
      });
      if (await deleteNoteShare(tx, noteId)) {
        const details = { noteId, patientIds: record.note.patientId ? [record.note.patientId] : [] };
        // A shared note made a psychotherapy note since: its entry is sealed for the author (decision 027).
        await scope.audit(
          tx,
          'NOTE_UNSHARE',
          record.note.isPrivate ? sealAuditDetails(this.#keyring, caller.user.id, details) : details,
        );
      }
    });
    return this.noteSharing(caller, noteId);
  }

  /** Whether (and when, by whom) a note the provider reaches is shared with its patient; null when not. */
  async noteSharing(caller: Caller, noteId: string) {
    const reach = await authorize(this.#db, caller, 'note:share');
    const callerId = reach.kind === 'own' ? reach.callerId : caller.user.id;
    const record = await scopeOf(this.#db, caller).find('note:share', noteId, {
      read: (db) => findNote(db, this.#keyring, noteId, { kind: 'author', callerId }),
      exists: (db) => noteExists(db, noteId),
      missing: 'noteMessages.notFound',
      denial: { noteIds: [noteId] },
    });
    const share = await findNoteShare(this.#db, noteId);
    return {
      noteId,
      shareable: !record.note.isPrivate && !!record.note.signedAt && !!record.note.patientId,
      sharedAt: share?.sharedAt ?? null,
      sharedByName: share?.sharedByName ?? null,
    };
  }

  // Correction requests ------------------------------------------------------------------------------------

  /**
   * A patient asks for a correction of their record (45 CFR 164.526): stored encrypted; the primary provider and
   * the administrators are e-mailed that a request waits (no patient, no content).
   */
  async requestCorrection(caller: Caller, input: unknown): Promise<CorrectionRecord> {
    await authorize(this.#db, caller, 'correction:request');
    const { patientId, ...fields } = (input ?? {}) as { patientId?: string | null };
    const data = parseInput(CorrectionRequestInputSchema, fields);
    const linked = await this.#ownRecord(caller, 'correction:request', patientId);
    return this.#db.transaction(async (tx) => {
      const correction = await insertCorrection(tx, this.#keyring, {
        patientId: linked.id,
        requestedBy: caller.user.id,
        field: data.field,
        request: data.request,
      });
      await scopeOf(this.#db, caller).audit(tx, 'RECORD_CORRECTION_REQUESTED', {
        correctionId: correction.id,
        patientIds: [linked.id],
        field: data.field,
      });
      const provider = linked.ownerId ? await activeUsersContact(tx, [linked.ownerId]) : [];
      const admins = await this.#mail.adminRecipients(tx);
      const to = [...new Map([...provider, ...admins].map((r) => [r.email, r])).values()];
      await this.#mail.enqueue(
        tx,
        to.map((r) => {
          const language = r.language === 'es' ? 'es' : 'en';
          return {
            to: r.email,
            kind: 'record-correction-waiting' as const,
            language,
            content: recordCorrectionWaitingMail(this.#mail.context, language, CORRECTION_RESPONSE_DAYS),
          };
        }),
      );
      return { correction, answeredByName: null };
    });
  }

  /** The signed-in patient's correction requests and their answers, newest first. */
  async myCorrections(caller: Caller): Promise<CorrectionRecord[]> {
    await authorize(this.#db, caller, 'correction:request');
    const linked = await findLinkedPatient(this.#db, caller.user.id);
    if (!linked) return [];
    return this.#db.transaction(async (tx) => {
      const rows = await correctionsOf(tx, this.#keyring, linked.id);
      await scopeOf(this.#db, caller).audit(tx, 'RECORD_CORRECTION_VIEW', {
        patientIds: [linked.id],
        count: rows.length,
      });
      return rows;
    });
  }

  /** A patient's correction requests, for their care team (the patient's chart). */
  async patientCorrections(caller: Caller, patientId: string): Promise<CorrectionRecord[]> {
    const reach = await authorize(this.#db, caller, 'correction:review');
    await scopeOf(this.#db, caller).find('correction:review', patientId, {
      read: (db) => this.#reachesPatient(db, reach, patientId),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
    return this.#db.transaction(async (tx) => {
      const rows = await correctionsOf(tx, this.#keyring, patientId);
      await scopeOf(this.#db, caller).audit(tx, 'RECORD_CORRECTION_VIEW', {
        patientIds: [patientId],
        count: rows.length,
      });
      return rows;
    });
  }

  /** The care team accepts or declines (with the reason) a correction request; answered once. */
  async answerCorrection(caller: Caller, input: unknown): Promise<CorrectionRecord> {
    const reach = await authorize(this.#db, caller, 'correction:review');
    const data = parseInput(AnswerCorrectionInputSchema, input);
    const scope = scopeOf(this.#db, caller);
    const patientId = await scope.transaction(async (tx, scoped) => {
      const found = isUuid(data.id) ? await findCorrectionForUpdate(tx, data.id) : undefined;
      if (!found) throw notFound('portalRecordMessages.correctionNotFound');
      if (reach.kind === 'own' && found.ownerId !== reach.callerId) {
        throw scoped.outOfReach(
          'correction:review',
          { patientIds: [found.correction.patientId], correctionId: data.id },
          'portalRecordMessages.correctionNotFound',
        );
      }
      if (found.correction.status !== 'pending') throw badUserInput('portalRecordMessages.correctionAnswered');
      await answerCorrectionRow(tx, this.#keyring, data.id, {
        status: data.decision,
        response: data.response,
        answeredBy: caller.user.id,
      });
      await scope.audit(tx, 'RECORD_CORRECTION_ANSWERED', {
        correctionId: data.id,
        patientIds: [found.correction.patientId],
        decision: data.decision,
      });
      return found.correction.patientId;
    });
    const rows = await correctionsOf(this.#db, this.#keyring, patientId);
    return rows.find((r) => r.correction.id === data.id)!;
  }

  // Who viewed my record -----------------------------------------------------------------------------------

  /**
   * Who of the practice read or changed the signed-in patient's record, newest first, paged by a signed cursor.
   * An entry that named several patients (a page of the patient list) shows only as "listed", without the others.
   * Reading the log is itself audited (RECORD_ACCESS_LOG_VIEW).
   */
  async recordAccessLog(
    caller: Caller,
    args: { patientId?: string | null; limit?: number | null; nextToken?: string | null },
  ) {
    await authorize(this.#db, caller, 'record-access:read');
    const limit = Math.min(Math.max(args.limit ?? RECORD_ACCESS_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#logCursors.decode(args.nextToken)[0] : null;
    if (after !== null && !/^\d{1,19}$/.test(after)) throw badUserInput('patientMessages.invalidToken');
    const linked = await this.#ownRecord(caller, 'record-access:read', args.patientId);
    return this.#db.transaction(async (tx) => {
      const rows = await accessLogPage(tx, { patientId: linked.id, accountId: caller.user.id, after, limit });
      await scopeOf(this.#db, caller).audit(tx, 'RECORD_ACCESS_LOG_VIEW', {
        patientIds: [linked.id],
        page: after ? 'next' : 'first',
      });
      const shown = rows.slice(0, limit);
      const items: RecordAccessEntry[] = shown.map((row) => {
        const kind = recordAccessKind(row.event, row.patientCount);
        return {
          id: row.id,
          timestamp: row.timestamp,
          kind,
          actorName: row.actorName,
          actorRole: row.userRole,
        };
      });
      const last = shown.at(-1);
      return { items, nextToken: rows.length > limit && last ? this.#logCursors.encode([last.id]) : null };
    });
  }

  // ------------------------------------------------------------------------------------------------------

  /**
   * The record linked to the caller's account (the only one these patient operations reach; `own` is
   * `patientAccountId`). Naming another existing record is recorded and answered like a missing one.
   */
  async #ownRecord(
    caller: Caller,
    action: 'correction:request' | 'record-access:read',
    patientId: string | null | undefined,
  ): Promise<{ id: string; ownerId: string | null }> {
    const linked = await findLinkedPatient(this.#db, caller.user.id);
    if (patientId == null) {
      if (!linked) throw notFound('portalRecordMessages.noRecord');
      return linked;
    }
    return scopeOf(this.#db, caller).find(action, patientId, {
      read: () => Promise.resolve(linked?.id === patientId ? linked : undefined),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  async #reachesPatient(
    executor: Executor,
    reach: Awaited<ReturnType<typeof authorize<'correction:review'>>>,
    patientId: string,
  ): Promise<boolean> {
    if (!(await patientExists(executor, patientId))) return false;
    if (reach.kind === 'any') return true;
    return (await findPatientOwnerIds(executor, patientId)).includes(reach.callerId);
  }
}
