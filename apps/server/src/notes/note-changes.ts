import {
  AddendumInputSchema,
  NoteInputSchema,
  SignNoteInputSchema,
  UnlockNoteInputSchema,
  UpdateNoteInputSchema,
  type NoteData,
} from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { RequestMeta } from '../auth/auth.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, forbidden, notFound, parseInput } from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { BlindIndex } from '../search/blind-index.ts';
import { actionOf, patientIdsOf, type NoteAccess, type NoteView } from './note-access.ts';
import {
  findNote,
  hasSignedVersion,
  insertAddendum,
  insertNote,
  notesToReindex,
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

/** Refuses, with its field's error, a link of a note the caller may not make (notes.service.ts `checkLinks`). */
export type CheckLinks = (
  caller: Caller,
  data: Pick<NoteData, 'patientId' | 'appointmentId' | 'templateId'>,
) => Promise<void>;

/**
 * The changes of a note (decision 027): writing a draft, deleting one never signed, signing (identity confirmed
 * again) and unlocking by its author only, addenda to a signed note, and the note's blind index for search. Every
 * change is audited in its transaction; one about a psychotherapy note is sealed for its author. Built by
 * NotesService, which passes its calls through.
 */
export class NoteChanges {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #access: NoteAccess;
  readonly #search: BlindIndex;
  readonly #confirmIdentity: ConfirmIdentity;
  readonly #checkLinks: CheckLinks;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    access: NoteAccess;
    search: BlindIndex;
    confirmIdentity: ConfirmIdentity;
    checkLinks: CheckLinks;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#access = options.access;
    this.#search = options.search;
    this.#confirmIdentity = options.confirmIdentity;
    this.#checkLinks = options.checkLinks;
  }

  async create(caller: Caller, input: unknown): Promise<NoteView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    const data = parseInput(NoteInputSchema, input);
    await this.#checkLinks(caller, data);
    const id = await this.#db.transaction(async (tx) => {
      const noteId = await insertNote(tx, this.#keyring, { ...this.#values(data), authorId: caller.user.id });
      await scope.audit(
        tx,
        data.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'NOTE_CREATE',
        this.#access.entryDetails(
          caller,
          {
            noteId,
            patientIds: data.patientId ? [data.patientId] : [],
            ...(data.isPrivate ? { action: 'create' } : {}),
          },
          data.isPrivate,
        ),
      );
      await recordIdempotencyKey(tx, caller, noteId);
      return noteId;
    });
    return this.#authorView(caller, id);
  }

  async update(caller: Caller, input: unknown): Promise<NoteView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    const { id, ...data } = parseInput(UpdateNoteInputSchema, input);
    await this.#checkLinks(caller, data);
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (record.note.signedAt) throw badUserInput('noteMessages.signedLocked');
      await updateNoteRow(tx, this.#keyring, id, this.#values(data));
      // Sealed when the note is or was a psychotherapy note: the entry would tie the earlier ones to the patient.
      await scope.audit(
        tx,
        data.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'NOTE_UPDATE',
        this.#access.entryDetails(
          caller,
          {
            noteId: id,
            patientIds: data.patientId ? [data.patientId] : [],
            ...(data.isPrivate ? { action: 'update' } : {}),
          },
          data.isPrivate || record.note.isPrivate,
        ),
      );
    });
    return this.#authorView(caller, id);
  }

  /** A draft that was never signed can be deleted by its author; a note that was signed once is kept. */
  async delete(caller: Caller, id: string): Promise<{ id: string }> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (record.note.signedAt || (await hasSignedVersion(tx, id))) throw badUserInput('noteMessages.signedLocked');
      await softDeleteNote(tx, id);
      await scope.audit(
        tx,
        'NOTE_DELETE',
        this.#access.entryDetails(
          caller,
          { noteId: id, patientIds: patientIdsOf(record), ...actionOf(record, 'delete') },
          record.note.isPrivate,
        ),
      );
    });
    return { id };
  }

  async sign(caller: Caller, meta: RequestMeta, input: unknown): Promise<NoteView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    const { id, password, code } = parseInput(SignNoteInputSchema, input);
    const record = await this.#access.find(caller, 'note:write', id, await this.#access.contentReach(caller));
    if (record.note.authorId !== caller.user.id) {
      await scope.recordOutOfReach('note:write', { noteIds: [id], reason: 'not the author' });
      throw forbidden('noteMessages.authorOnly');
    }
    if (record.note.signedAt) throw badUserInput('noteMessages.alreadySigned');
    // The password or code is checked before the note is locked for the signature (a slow hash, no lock held).
    await this.#confirmIdentity(caller, meta, { password, code });
    await this.#asAuthor(caller, id, async (tx, locked) => {
      if (locked.note.signedAt) throw badUserInput('noteMessages.alreadySigned');
      await signNoteRow(tx, this.#keyring, locked, caller.user.id);
      await scope.audit(
        tx,
        'NOTE_SIGN',
        this.#access.entryDetails(
          caller,
          {
            noteId: id,
            version: locked.note.version,
            patientIds: patientIdsOf(locked),
            confirmedWith: password ? 'password' : 'totp',
            ...actionOf(locked, 'sign'),
          },
          locked.note.isPrivate,
        ),
      );
    });
    return this.#authorView(caller, id);
  }

  async unlock(caller: Caller, input: unknown): Promise<NoteView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    const { id, reason } = parseInput(UnlockNoteInputSchema, input);
    await this.#asAuthor(caller, id, async (tx, record) => {
      if (!record.note.signedAt) throw badUserInput('noteMessages.notSigned');
      await unlockNoteRow(tx, this.#keyring, record, caller.user.id, reason);
      await scope.audit(
        tx,
        'NOTE_UNLOCK',
        this.#access.entryDetails(
          caller,
          { noteId: id, version: record.note.version, patientIds: patientIdsOf(record), ...actionOf(record, 'unlock') },
          record.note.isPrivate,
        ),
        { level: 'WARNING' },
      );
    });
    return this.#authorView(caller, id);
  }

  /**
   * An addendum to a signed note, by anyone who may read its content and write notes; signed when written. Answers
   * the note's id (the service answers the note as `get` reads it).
   */
  async addAddendum(caller: Caller, meta: RequestMeta, input: unknown): Promise<string> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note:write');
    const { noteId, content, password, code } = parseInput(AddendumInputSchema, input);
    const reach = await this.#access.contentReach(caller);
    const record = await this.#access.find(caller, 'note:write', noteId, reach);
    if (!record.note.signedAt) throw badUserInput('noteMessages.notSigned');
    await this.#confirmIdentity(caller, meta, { password, code });
    await this.#db.transaction(async (tx) => {
      await insertAddendum(tx, this.#keyring, {
        noteId,
        noteVersion: record.note.version,
        authorId: caller.user.id,
        content,
      });
      await scope.audit(
        tx,
        'NOTE_ADDENDUM',
        this.#access.entryDetails(
          caller,
          { noteId, patientIds: patientIdsOf(record), ...actionOf(record, 'addendum') },
          record.note.isPrivate,
        ),
      );
    });
    return noteId;
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

  async #authorView(caller: Caller, id: string): Promise<NoteView> {
    const record = await findNote(this.#db, this.#keyring, id, { kind: 'author', callerId: caller.user.id });
    if (!record) throw notFound('noteMessages.notFound');
    return { record, contentVisible: true, isAuthor: true };
  }

  /**
   * Runs `work` on the caller's own note, locked for the transaction. Another's note is refused: not found when out
   * of reach, FORBIDDEN when the caller may read it but did not write it; either is recorded after the transaction
   * (the scope's), so that a denial never holds a second pooled connection.
   */
  async #asAuthor(caller: Caller, id: string, work: (tx: Executor, record: NoteRecord) => Promise<void>) {
    const reach: NoteReach = { kind: 'author', callerId: caller.user.id };
    await scopeOf(this.#db, caller).transaction(async (tx, scoped) => {
      const record = await scoped.find('note:write', id, this.#access.spec(id, reach, { lock: true }));
      if (record.note.authorId !== caller.user.id) {
        throw scoped.outOfReach(
          'note:write',
          { noteIds: [id], reason: 'not the author' },
          forbidden('noteMessages.authorOnly'),
        );
      }
      await work(tx, record);
    });
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
}
