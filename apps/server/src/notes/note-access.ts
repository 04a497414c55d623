import { seesRecordPart, type AuditEvent } from '@telehealth/shared';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import { scopeOf, type FindByReach } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { sealAuditDetails } from '../audit/sealed-details.ts';
import type { Database } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findNote, noteExists, type NoteReach, type NoteRecord } from './notes.repository.ts';

/** A note as a caller may see it: `content` and `tags` are null where the content is withheld (administrators). */
export interface NoteView {
  record: NoteRecord;
  contentVisible: boolean;
  /** The caller wrote it: may edit a draft, sign, unlock, delete a draft. */
  isAuthor: boolean;
}

/**
 * Who reaches which notes and what they see of them (decision 027): the caller's reach (the author's, or the index
 * only for administrators), one note found within it through the scope, the part of a note the caller sees
 * (`note:psychotherapy-content` among the record parts), and what an audit entry about a note names: sealed for
 * its author when the note is a psychotherapy note. Shared by the reads (`notes.service.ts`) and the changes
 * (`note-changes.ts`).
 */
export class NoteAccess {
  readonly #db: Database;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; keyring: Keyring }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
  }

  /** Providers reach notes as authors (and their patients' notes); administrators reach the index only. */
  async readReach(caller: Caller, options: { emergency?: boolean } = {}): Promise<NoteReach> {
    if (seesRecordPart(caller.user.role, 'note:content')) return this.contentReach(caller, options);
    const index = await scopeOf(this.#db, caller).reach('note:index');
    return index.kind === 'any' ? { kind: 'index' } : { kind: 'author', callerId: caller.user.id };
  }

  /** Only those who may read content (administrators are refused here). */
  async contentReach(caller: Caller, options: { emergency?: boolean } = {}): Promise<NoteReach> {
    // Reads that emergency access opens ask for it; writes never do (decision 036).
    const reach = await scopeOf(this.#db, caller).reach('note:read', { emergency: options.emergency ?? false });
    if (reach.kind === 'any') throw new Error('note:read:any is not granted to anyone (decision 027)');
    return { kind: 'author', callerId: reach.callerId, ...(reach.emergency ? { emergency: reach.emergency } : {}) };
  }

  /** The note if the caller reaches it; otherwise not found (an existing one out of reach is recorded). */
  find(
    caller: Caller,
    action: 'note:index' | 'note:read' | 'note:write',
    id: string,
    reach: NoteReach,
  ): Promise<NoteRecord> {
    return scopeOf(this.#db, caller).find(action, id, this.spec(id, reach));
  }

  /** How the scope finds a note within `reach` (`lock`: locked for the transaction). */
  spec(id: string, reach: NoteReach, options: { lock?: boolean } = {}): FindByReach<NoteRecord, boolean> {
    return {
      read: (db) => findNote(db, this.#keyring, id, reach, options),
      exists: (db) => noteExists(db, id),
      missing: 'noteMessages.notFound',
      denial: { noteIds: [id] },
    };
  }

  /**
   * What the caller sees of a note it reaches. A note's content comes with the author's reach; a psychotherapy
   * note's content only to a role that sees `note:psychotherapy-content`, when it is the author, one note at a
   * time: never in a list (each read of it is its own audited read). The reach already holds such a note to its
   * author (`reachCondition`).
   */
  view(caller: Caller, reach: NoteReach, record: NoteRecord, options: { inList: boolean }): NoteView {
    const isAuthor = record.note.authorId === caller.user.id;
    const contentVisible =
      reach.kind === 'author' &&
      (!record.note.isPrivate ||
        (seesRecordPart(caller.user.role, 'note:psychotherapy-content') && isAuthor && !options.inList));
    return { record, contentVisible, isAuthor };
  }

  /**
   * The details of an audit entry about a note. `sealed`: the entry is about a psychotherapy note, so what it names
   * (the note, the patient) is sealed for the caller, its author (decision 027); the event, the author and the time
   * stay readable.
   */
  entryDetails(caller: Caller, details: Record<string, unknown>, sealed: boolean): Record<string, unknown> {
    return sealed ? sealAuditDetails(this.#keyring, caller.user.id, details) : details;
  }

  /** The audit entry of reading one note (its content, history or the author's activity on it). */
  readEntry(
    caller: Caller,
    view: NoteView,
    action: 'read' | 'history' | 'activity',
    extra: Record<string, unknown> = {},
  ): { event: AuditEvent; details: Record<string, unknown> } {
    const { note } = view.record;
    return {
      event: note.isPrivate ? 'PSYCHOTHERAPY_NOTE_ACCESS' : 'MEDICAL_RECORD_ACCESS',
      details: this.entryDetails(
        caller,
        {
          noteId: note.id,
          patientIds: patientIdsOf(view.record),
          contentShown: view.contentVisible,
          ...(note.isPrivate ? { action } : {}),
          ...extra,
        },
        note.isPrivate,
      ),
    };
  }
}

export function patientIdsOf(record: NoteRecord): string[] {
  return record.note.patientId ? [record.note.patientId] : [];
}

export function uniquePatientIds(views: readonly NoteView[]): string[] {
  return [...new Set(views.flatMap((v) => patientIdsOf(v.record)))];
}

/** What was done to a psychotherapy note, for its sealed entry (the author's activity reads it). */
export function actionOf(record: NoteRecord, action: string): { action?: string } {
  return record.note.isPrivate ? { action } : {};
}

/** The emergency access grants a read about these patients went through, for its audit entry (decision 036). */
export function emergencyDetails(reach: NoteReach, patientIds: readonly string[]) {
  return reach.kind === 'author' ? emergencyAuditDetails(reach.emergency, patientIds) : {};
}
