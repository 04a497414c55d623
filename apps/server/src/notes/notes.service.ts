import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import {
  AddendumInputSchema,
  BUILT_IN_NOTE_TEMPLATES,
  seesRecordPart,
  MAX_PAGE_SIZE,
  NoteFilterSchema,
  NoteInputSchema,
  NoteTemplateInputSchema,
  PAGE_SIZE,
  SignNoteInputSchema,
  UnlockNoteInputSchema,
  UpdateNoteInputSchema,
  type AuditEvent,
  type NoteData,
} from '@telehealth/shared';
import { authorize, recordOutOfReach } from '../access/authorize.ts';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import type { Caller } from '../access/caller.ts';
import { findVisibleAppointment } from '../appointments/appointments.repository.ts';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import { findOwnSealedEntries, sealAuditDetails } from '../audit/sealed-details.ts';
import type { RequestMeta } from '../auth/auth.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { noteTemplates } from './notes.table.ts';
import { badUserInput, fieldError, forbidden, notFound, parseInput } from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findVisiblePatient } from '../patients/patients.repository.ts';
import { BlindIndex, NOTES_SEARCH_PURPOSE } from '../search/blind-index.ts';
import {
  addendaOf,
  findNote,
  hasSignedVersion,
  historyOf,
  insertAddendum,
  insertNote,
  listNotesPage,
  noteExists,
  notesToReindex,
  noteStats,
  setSearchTokens,
  signNoteRow,
  softDeleteNote,
  unlockNoteRow,
  updateNoteRow,
  type NoteReach,
  type NoteRecord,
  type NoteValues,
} from './notes.repository.ts';

/** Re-confirms the signed-in person (password, or a current authenticator code) before a signature. */
export type ConfirmIdentity = (
  caller: Caller,
  meta: RequestMeta,
  proof: { password?: string | null | undefined; code?: string | null | undefined },
) => Promise<void>;

/** A note as a caller may see it: `content` and `tags` are null where the content is withheld (administrators). */
export interface NoteView {
  record: NoteRecord;
  contentVisible: boolean;
  /** The caller wrote it: may edit a draft, sign, unlock, delete a draft. */
  isAuthor: boolean;
}

/**
 * Clinical notes (decision 027). Every operation asks the access checkpoint first; a note the caller may not
 * reach answers like a missing one (and an attempt on an existing one is recorded). Every read of content and
 * every change is audited in the same transaction. A psychotherapy note (`isPrivate`) reaches its author only.
 */
export class NotesService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #cursors: CursorCodec<readonly [string, string]>;
  readonly #search: BlindIndex;
  readonly #confirmIdentity: ConfirmIdentity;

  constructor(options: { db: Database; keyring: Keyring; secret: string; confirmIdentity: ConfirmIdentity }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#cursors = new CursorCodec(`${options.secret}:notes`, 2);
    this.#search = new BlindIndex(options.secret, NOTES_SEARCH_PURPOSE);
    this.#confirmIdentity = options.confirmIdentity;
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null; filter?: unknown }) {
    const reach = await this.#readReach(caller, { emergency: true });
    const filter = parseInput(NoteFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    const searchTokens = filter.search ? this.#search.queryTokens(filter.search) : [];
    if (filter.patientId && !isUuid(filter.patientId)) return { items: [], nextToken: null };
    return this.#db.transaction(async (tx) => {
      const page = await listNotesPage(tx, this.#keyring, { reach, filter: { ...filter, searchTokens }, after, limit });
      const items = page.records.map((record) => this.#view(caller, reach, record, { inList: true }));
      const read = items.filter((v) => v.contentVisible);
      // The page shows the content of these notes (a preview): one MEDICAL_RECORD_ACCESS for the page. Its
      // psychotherapy notes (the author's own) are named only in a part sealed for the author (decision 027).
      const ordinary = items.filter((v) => !v.record.note.isPrivate);
      const therapy = items.filter((v) => v.record.note.isPrivate);
      const patientIds = uniquePatientIds(ordinary);
      await this.#audit(tx, caller, 'MEDICAL_RECORD_ACCESS', {
        noteIds: ordinary.map((v) => v.record.note.id),
        contentShown: read.length,
        patientIds,
        page: after ? 'next' : 'first',
        ...emergencyDetails(reach, patientIds),
        ...(therapy.length > 0
          ? this.#sealed(caller, {
              action: 'list',
              noteIds: therapy.map((v) => v.record.note.id),
              patientIds: uniquePatientIds(therapy),
            })
          : {}),
      });
      return { items, nextToken: page.next ? this.#cursors.encode(page.next) : null };
    });
  }

  async stats(caller: Caller) {
    return noteStats(this.#db, await this.#readReach(caller));
  }

  async get(caller: Caller, id: string) {
    const reach = await this.#readReach(caller, { emergency: true });
    // Reading a note is seeing that it exists (note:index); its content comes with note:read.
    const record = await this.#find(caller, 'note:index', id, reach);
    const view = this.#view(caller, reach, record, { inList: false });
    return this.#db.transaction(async (tx) => {
      await this.#auditRead(tx, caller, view, 'read', emergencyDetails(reach, patientIdsOf(record)));
      const addenda = view.contentVisible ? await addendaOf(tx, this.#keyring, id) : [];
      return { ...view, addenda };
    });
  }

  /** Every signed version and unlock of a note: readable to those who may read its content. */
  async history(caller: Caller, id: string) {
    const reach = await this.#contentReach(caller, { emergency: true });
    const record = await this.#find(caller, 'note:read', id, reach);
    const view = this.#view(caller, reach, record, { inList: false });
    return this.#db.transaction(async (tx) => {
      const history = await historyOf(tx, this.#keyring, id);
      await this.#auditRead(tx, caller, view, 'history', {
        versions: history.versions.map((v) => v.version),
        ...emergencyDetails(reach, patientIdsOf(record)),
      });
      return history;
    });
  }

  /**
   * What the audit trail holds about one of the caller's own psychotherapy notes, oldest first: the one read path
   * that opens those sealed entries (decision 027). Anyone else's, or an ordinary note, answers not found. Reading
   * it is itself a sealed PSYCHOTHERAPY_NOTE_ACCESS entry.
   */
  async psychotherapyActivity(caller: Caller, id: string) {
    const reach = await this.#contentReach(caller);
    const record = await this.#find(caller, 'note:read', id, reach);
    if (!record.note.isPrivate || record.note.authorId !== caller.user.id) throw notFound('noteMessages.notFound');
    const view: NoteView = { record, contentVisible: false, isAuthor: true };
    return this.#db.transaction(async (tx) => {
      const entries = await findOwnSealedEntries(tx, this.#keyring, caller.user.id, (details) => {
        const noteIds = details.noteIds;
        return details.noteId === id || (Array.isArray(noteIds) && noteIds.includes(id));
      });
      await this.#auditRead(tx, caller, view, 'activity');
      return entries.map((entry) => ({
        at: entry.timestamp,
        event: entry.event,
        action: typeof entry.details.action === 'string' ? entry.details.action : null,
      }));
    });
  }

  async create(caller: Caller, input: unknown): Promise<NoteView> {
    await authorize(this.#db, caller, 'note:write');
    const data = parseInput(NoteInputSchema, input);
    await this.#checkLinks(caller, data);
    const id = await this.#db.transaction(async (tx) => {
      const noteId = await insertNote(tx, this.#keyring, { ...this.#values(data), authorId: caller.user.id });
      await this.#audit(
        tx,
        caller,
        data.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'NOTE_CREATE',
        { noteId, patientIds: data.patientId ? [data.patientId] : [], ...(data.isPrivate ? { action: 'create' } : {}) },
        { sealed: data.isPrivate },
      );
      await recordIdempotencyKey(tx, caller, noteId);
      return noteId;
    });
    return this.#authorView(caller, id);
  }

  async update(caller: Caller, input: unknown): Promise<NoteView> {
    await authorize(this.#db, caller, 'note:write');
    const { id, ...data } = parseInput(UpdateNoteInputSchema, input);
    await this.#checkLinks(caller, data);
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (record.note.signedAt) throw badUserInput('noteMessages.signedLocked');
      await updateNoteRow(tx, this.#keyring, id, this.#values(data));
      // Sealed when the note is or was a psychotherapy note: the entry would tie the earlier ones to the patient.
      await this.#audit(
        tx,
        caller,
        data.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'NOTE_UPDATE',
        {
          noteId: id,
          patientIds: data.patientId ? [data.patientId] : [],
          ...(data.isPrivate ? { action: 'update' } : {}),
        },
        { sealed: data.isPrivate || record.note.isPrivate },
      );
    });
    return this.#authorView(caller, id);
  }

  /** A draft that was never signed can be deleted by its author; a note that was signed once is kept. */
  async delete(caller: Caller, id: string): Promise<{ id: string }> {
    await authorize(this.#db, caller, 'note:write');
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (record.note.signedAt || (await hasSignedVersion(tx, id))) throw badUserInput('noteMessages.signedLocked');
      await softDeleteNote(tx, id);
      await this.#audit(
        tx,
        caller,
        'NOTE_DELETE',
        { noteId: id, patientIds: patientIdsOf(record), ...actionOf(record, 'delete') },
        { sealed: record.note.isPrivate },
      );
    });
    return { id };
  }

  async sign(caller: Caller, meta: RequestMeta, input: unknown): Promise<NoteView> {
    await authorize(this.#db, caller, 'note:write');
    const { id, password, code } = parseInput(SignNoteInputSchema, input);
    const record = await this.#find(caller, 'note:write', id, await this.#contentReach(caller));
    if (record.note.authorId !== caller.user.id) {
      await recordOutOfReach(this.#db, caller, 'note:write', { noteIds: [id], reason: 'not the author' });
      throw forbidden('noteMessages.authorOnly');
    }
    if (record.note.signedAt) throw badUserInput('noteMessages.alreadySigned');
    // The password or code is checked before the note is locked for the signature (a slow hash, no lock held).
    await this.#confirmIdentity(caller, meta, { password, code });
    await this.#asAuthor(caller, id, async (tx, locked) => {
      if (locked.note.signedAt) throw badUserInput('noteMessages.alreadySigned');
      await signNoteRow(tx, this.#keyring, locked, caller.user.id);
      await this.#audit(
        tx,
        caller,
        'NOTE_SIGN',
        {
          noteId: id,
          version: locked.note.version,
          patientIds: patientIdsOf(locked),
          confirmedWith: password ? 'password' : 'totp',
          ...actionOf(locked, 'sign'),
        },
        { sealed: locked.note.isPrivate },
      );
    });
    return this.#authorView(caller, id);
  }

  async unlock(caller: Caller, input: unknown): Promise<NoteView> {
    await authorize(this.#db, caller, 'note:write');
    const { id, reason } = parseInput(UnlockNoteInputSchema, input);
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (!record.note.signedAt) throw badUserInput('noteMessages.notSigned');
      await unlockNoteRow(tx, this.#keyring, record, caller.user.id, reason);
      await this.#audit(
        tx,
        caller,
        'NOTE_UNLOCK',
        { noteId: id, version: record.note.version, patientIds: patientIdsOf(record), ...actionOf(record, 'unlock') },
        { level: 'WARNING', sealed: record.note.isPrivate },
      );
    });
    return this.#authorView(caller, id);
  }

  /** An addendum to a signed note, by anyone who may read its content and write notes; signed when written. */
  async addAddendum(caller: Caller, meta: RequestMeta, input: unknown) {
    await authorize(this.#db, caller, 'note:write');
    const { noteId, content, password, code } = parseInput(AddendumInputSchema, input);
    const reach = await this.#contentReach(caller);
    const record = await this.#find(caller, 'note:write', noteId, reach);
    if (!record.note.signedAt) throw badUserInput('noteMessages.notSigned');
    await this.#confirmIdentity(caller, meta, { password, code });
    await this.#db.transaction(async (tx) => {
      await insertAddendum(tx, this.#keyring, {
        noteId,
        noteVersion: record.note.version,
        authorId: caller.user.id,
        content,
      });
      await this.#audit(
        tx,
        caller,
        'NOTE_ADDENDUM',
        { noteId, patientIds: patientIdsOf(record), ...actionOf(record, 'addendum') },
        { sealed: record.note.isPrivate },
      );
    });
    return this.get(caller, noteId);
  }

  // Templates ---------------------------------------------------------------------------------------------

  /** The editor's templates (active ones; administrators also see the inactive). */
  async templates(caller: Caller) {
    const canManage = seesRecordPart(caller.user.role, 'note-template:inactive');
    if (!canManage) await authorize(this.#db, caller, 'note:write');
    const rows = await this.#db
      .select()
      .from(noteTemplates)
      .where(canManage ? undefined : eq(noteTemplates.isActive, true))
      .orderBy(sql`${noteTemplates.key} IS NULL`, asc(noteTemplates.name));
    return rows;
  }

  async saveTemplate(caller: Caller, input: unknown) {
    await authorize(this.#db, caller, 'note-template:manage');
    const { id, name, body, category, isActive } = parseInput(NoteTemplateInputSchema, input);
    return this.#db.transaction(async (tx) => {
      const values = {
        name,
        body,
        category: category ?? 'general',
        isActive: isActive ?? true,
        updatedBy: caller.user.id,
        updatedAt: new Date(),
      };
      if (id && !isUuid(id)) throw notFound('noteMessages.templateNotFound');
      const [row] = id
        ? await tx.update(noteTemplates).set(values).where(eq(noteTemplates.id, id)).returning()
        : await tx.insert(noteTemplates).values(values).returning();
      if (!row) throw notFound('noteMessages.templateNotFound');
      await this.#audit(tx, caller, 'NOTE_TEMPLATE_CHANGE', { templateId: row.id, created: !id });
      return row;
    });
  }

  /**
   * Adds the built-in templates that are missing and brings those no administrator has changed (`updated_by` is
   * empty) to this version's text (at start); an administrator's edits of them are kept.
   */
  async seedTemplates(): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx
        .insert(noteTemplates)
        .values(BUILT_IN_NOTE_TEMPLATES.map(({ key, name, body, category }) => ({ key, name, body, category })))
        .onConflictDoNothing({ target: noteTemplates.key });
      for (const { key, name, body, category } of BUILT_IN_NOTE_TEMPLATES) {
        await tx
          .update(noteTemplates)
          .set({ name, body, category, updatedAt: new Date() })
          .where(
            and(
              eq(noteTemplates.key, key),
              isNull(noteTemplates.updatedBy),
              or(ne(noteTemplates.name, name), ne(noteTemplates.body, body), ne(noteTemplates.category, category)),
            ),
          );
      }
    });
  }

  /** Re-indexes the notes indexed under another search key (AUTH_SECRET changed), at start. Answers how many. */
  async reindexSearch(): Promise<number> {
    let count = 0;
    for (;;) {
      const batch = await notesToReindex(this.#db, this.#keyring, this.#search.keyId, 200);
      if (batch.length === 0) return count;
      for (const note of batch) {
        await this.#db.transaction((tx) =>
          setSearchTokens(tx, note.id, this.#searchTokens(note.title, note.content, note.tags), this.#search.keyId),
        );
      }
      count += batch.length;
    }
  }

  // ------------------------------------------------------------------------------------------------------

  /** Providers reach notes as authors (and their patients' notes); administrators reach the index only. */
  async #readReach(caller: Caller, options: { emergency?: boolean } = {}): Promise<NoteReach> {
    if (seesRecordPart(caller.user.role, 'note:content')) return this.#contentReach(caller, options);
    const index = await authorize(this.#db, caller, 'note:index');
    return index.kind === 'any' ? { kind: 'index' } : { kind: 'author', callerId: caller.user.id };
  }

  /** Only those who may read content (administrators are refused here). */
  async #contentReach(caller: Caller, options: { emergency?: boolean } = {}): Promise<NoteReach> {
    // Reads that emergency access opens ask for it; writes never do (decision 036).
    const reach = await authorize(this.#db, caller, 'note:read', { emergency: options.emergency ?? false });
    if (reach.kind === 'any') throw new Error('note:read:any is not granted to anyone (decision 027)');
    return { kind: 'author', callerId: reach.callerId, ...(reach.emergency ? { emergency: reach.emergency } : {}) };
  }

  #view(caller: Caller, reach: NoteReach, record: NoteRecord, options: { inList: boolean }): NoteView {
    const isAuthor = record.note.authorId === caller.user.id;
    // A psychotherapy note's content is not shown in lists (each read of it is its own audited read).
    const contentVisible = reach.kind === 'author' && !(options.inList && record.note.isPrivate);
    return { record, contentVisible, isAuthor };
  }

  async #authorView(caller: Caller, id: string): Promise<NoteView> {
    const record = await findNote(this.#db, this.#keyring, id, { kind: 'author', callerId: caller.user.id });
    if (!record) throw notFound('noteMessages.notFound');
    return { record, contentVisible: true, isAuthor: true };
  }

  async #auditRead(
    tx: Executor,
    caller: Caller,
    view: NoteView,
    action: 'read' | 'history' | 'activity',
    extra: Record<string, unknown> = {},
  ) {
    const { note } = view.record;
    await this.#audit(
      tx,
      caller,
      note.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'MEDICAL_RECORD_ACCESS',
      {
        noteId: note.id,
        patientIds: patientIdsOf(view.record),
        contentShown: view.contentVisible,
        ...(note.isPrivate ? { action } : {}),
        ...extra,
      },
      { sealed: note.isPrivate },
    );
  }

  /** The note if the caller reaches it; otherwise not found (an existing one out of reach is recorded). */
  async #find(
    caller: Caller,
    action: 'note:index' | 'note:read' | 'note:write',
    id: string,
    reach: NoteReach,
  ): Promise<NoteRecord> {
    const record = isUuid(id) ? await findNote(this.#db, this.#keyring, id, reach) : undefined;
    if (record) return record;
    if (isUuid(id) && (await noteExists(this.#db, id))) {
      await recordOutOfReach(this.#db, caller, action, { noteIds: [id] });
    }
    throw notFound('noteMessages.notFound');
  }

  /**
   * Runs `work` on the caller's own note, locked for the transaction. Another's note is refused: not found when out
   * of reach, FORBIDDEN when the caller may read it but did not write it; either is recorded after the transaction,
   * so that a denial never holds a second pooled connection.
   */
  async #asAuthor(caller: Caller, id: string, work: (tx: Executor, record: NoteRecord) => Promise<void>) {
    const reach: NoteReach = { kind: 'author', callerId: caller.user.id };
    let denial: Record<string, unknown> | null = null;
    try {
      await this.#db.transaction(async (tx) => {
        const record = isUuid(id) ? await findNote(tx, this.#keyring, id, reach, { lock: true }) : undefined;
        if (!record) {
          if (isUuid(id) && (await noteExists(tx, id))) denial = { noteIds: [id] };
          throw notFound('noteMessages.notFound');
        }
        if (record.note.authorId !== caller.user.id) {
          denial = { noteIds: [id], reason: 'not the author' };
          throw forbidden('noteMessages.authorOnly');
        }
        await work(tx, record);
      });
    } catch (error) {
      if (denial) await recordOutOfReach(this.#db, caller, 'note:write', denial);
      throw error;
    }
  }

  /** The patient must be the caller's to see, the appointment that patient's and the caller's to see. */
  async #checkLinks(caller: Caller, data: Pick<NoteData, 'patientId' | 'appointmentId' | 'templateId'>) {
    if (data.templateId) {
      const [template] = isUuid(data.templateId)
        ? await this.#db
            .select({ id: noteTemplates.id })
            .from(noteTemplates)
            .where(eq(noteTemplates.id, data.templateId))
        : [];
      if (!template) throw fieldError('templateId', 'noteMessages.templateNotFound');
    }
    if (data.patientId) {
      const scope = await authorize(this.#db, caller, 'patient:read', { message: 'noteMessages.patientNotYours' });
      const patient = isUuid(data.patientId)
        ? await findVisiblePatient(this.#db, data.patientId, scope, this.#keyring)
        : undefined;
      if (!patient) throw fieldError('patientId', 'noteMessages.patientNotYours');
    }
    if (data.appointmentId) {
      const reach = await authorize(this.#db, caller, 'appointment:read');
      const appointment = isUuid(data.appointmentId)
        ? await findVisibleAppointment(this.#db, data.appointmentId, reach, this.#keyring)
        : undefined;
      if (!appointment || appointment.patientId !== data.patientId) {
        throw fieldError('appointmentId', 'noteMessages.appointmentNotPatients');
      }
    }
  }

  #values(data: Omit<NoteData, 'id'>): NoteValues {
    const tags = JSON.stringify(data.tags);
    return {
      title: data.title,
      content: data.content,
      tags,
      category: data.category,
      priority: data.priority,
      patientId: data.patientId,
      appointmentId: data.appointmentId,
      isPrivate: data.isPrivate,
      templateId: data.templateId,
      searchTokens: this.#searchTokens(data.title, data.content, tags),
      searchKeyId: this.#search.keyId,
    };
  }

  #searchTokens(title: string, content: string, tags: string): string[] {
    return this.#search.tokensOf([title, content, (JSON.parse(tags) as string[]).join(' ')]);
  }

  /**
   * One audit entry. `sealed`: the entry is about a psychotherapy note, so what it names (the note, the patient)
   * is sealed for the caller, its author (decision 027); the event, the author and the time stay readable.
   */
  #audit(
    tx: Executor,
    caller: Caller,
    event: AuditEvent,
    details: Record<string, unknown>,
    options: { level?: 'INFO' | 'WARNING'; sealed?: boolean } = {},
  ) {
    return appendAuditEntry(tx, {
      event,
      level: options.level ?? 'INFO',
      actor: caller.actor,
      url: caller.operation,
      details: options.sealed ? this.#sealed(caller, details) : details,
    });
  }

  #sealed(caller: Caller, details: Record<string, unknown>) {
    return sealAuditDetails(this.#keyring, caller.user.id, details);
  }
}

function patientIdsOf(record: NoteRecord): string[] {
  return record.note.patientId ? [record.note.patientId] : [];
}

function uniquePatientIds(views: readonly NoteView[]): string[] {
  return [...new Set(views.flatMap((v) => patientIdsOf(v.record)))];
}

/** What was done to a psychotherapy note, for its sealed entry (the author's activity reads it). */
function actionOf(record: NoteRecord, action: string): { action?: string } {
  return record.note.isPrivate ? { action } : {};
}

/** The tags stored as JSON text (encrypted): read back as a list. */
export function tagsOf(record: NoteRecord): string[] {
  return JSON.parse(record.note.tags) as string[];
}

/** The emergency access grants a read about these patients went through, for its audit entry (decision 036). */
function emergencyDetails(reach: NoteReach, patientIds: readonly string[]) {
  return reach.kind === 'author' ? emergencyAuditDetails(reach.emergency, patientIds) : {};
}
