import { MAX_PAGE_SIZE, NoteFilterSchema, PAGE_SIZE, type NoteData } from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { findVisibleAppointment } from '../appointments/appointments.repository.ts';
import { findOwnSealedEntries, sealAuditDetails } from '../audit/sealed-details.ts';
import type { RequestMeta } from '../auth/auth.service.ts';
import type { Database } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { fieldError, notFound, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findVisiblePatient } from '../patients/patients.repository.ts';
import { BlindIndex, NOTES_SEARCH_PURPOSE } from '../search/blind-index.ts';
import { emergencyDetails, NoteAccess, patientIdsOf, uniquePatientIds, type NoteView } from './note-access.ts';
import { NoteChanges, type ConfirmIdentity } from './note-changes.ts';
import { noteTemplateExists, NoteTemplates } from './note-templates.ts';
import { addendaOf, historyOf, listNotesPage, noteStats, type NoteRecord } from './notes.repository.ts';

export type { ConfirmIdentity, NoteView };

/**
 * Clinical notes (decision 027). Every operation asks the access checkpoint first; a note the caller may not
 * reach answers like a missing one (and an attempt on an existing one is recorded). Every read of content and
 * every change is audited in the same transaction. A psychotherapy note (`isPrivate`) reaches its author only.
 * The reads are here; who reaches which notes and what an entry about one names in `note-access.ts`, the changes
 * in `note-changes.ts`, the templates in `note-templates.ts`.
 */
export class NotesService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #cursors: CursorCodec<readonly [string, string]>;
  readonly #search: BlindIndex;
  readonly #access: NoteAccess;
  readonly #changes: NoteChanges;
  readonly #templates: NoteTemplates;

  constructor(options: { db: Database; keyring: Keyring; secret: string; confirmIdentity: ConfirmIdentity }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#cursors = new CursorCodec(`${options.secret}:notes`, 2);
    this.#search = new BlindIndex(options.secret, NOTES_SEARCH_PURPOSE);
    this.#access = new NoteAccess(options);
    this.#changes = new NoteChanges({
      ...options,
      access: this.#access,
      search: this.#search,
      checkLinks: (caller, data) => this.#checkLinks(caller, data),
    });
    this.#templates = new NoteTemplates(options);
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null; filter?: unknown }) {
    const reach = await this.#access.readReach(caller, { emergency: true });
    const filter = parseInput(NoteFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    const searchTokens = filter.search ? this.#search.queryTokens(filter.search) : [];
    if (filter.patientId && !isUuid(filter.patientId)) return { items: [], nextToken: null };
    return this.#db.transaction(async (tx) => {
      const page = await listNotesPage(tx, this.#keyring, { reach, filter: { ...filter, searchTokens }, after, limit });
      const items = page.records.map((record) => this.#access.view(caller, reach, record, { inList: true }));
      const read = items.filter((v) => v.contentVisible);
      // The page shows the content of these notes (a preview): one MEDICAL_RECORD_ACCESS for the page. Its
      // psychotherapy notes (the author's own) are named only in a part sealed for the author (decision 027).
      const ordinary = items.filter((v) => !v.record.note.isPrivate);
      const therapy = items.filter((v) => v.record.note.isPrivate);
      const patientIds = uniquePatientIds(ordinary);
      await scopeOf(this.#db, caller).audit(tx, 'MEDICAL_RECORD_ACCESS', {
        noteIds: ordinary.map((v) => v.record.note.id),
        contentShown: read.length,
        patientIds,
        page: after ? 'next' : 'first',
        ...emergencyDetails(reach, patientIds),
        ...(therapy.length > 0
          ? sealAuditDetails(this.#keyring, caller.user.id, {
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
    return noteStats(this.#db, await this.#access.readReach(caller));
  }

  async get(caller: Caller, id: string) {
    const reach = await this.#access.readReach(caller, { emergency: true });
    // Reading a note is seeing that it exists (note:index); its content comes with note:read.
    const record = await this.#access.find(caller, 'note:index', id, reach);
    const view = this.#access.view(caller, reach, record, { inList: false });
    return this.#db.transaction(async (tx) => {
      const entry = this.#access.readEntry(caller, view, 'read', emergencyDetails(reach, patientIdsOf(record)));
      await scopeOf(this.#db, caller).audit(tx, entry.event, entry.details);
      const addenda = view.contentVisible ? await addendaOf(tx, this.#keyring, id) : [];
      return { ...view, addenda };
    });
  }

  /** Every signed version and unlock of a note: readable to those who may read its content. */
  async history(caller: Caller, id: string) {
    const reach = await this.#access.contentReach(caller, { emergency: true });
    const record = await this.#access.find(caller, 'note:read', id, reach);
    const view = this.#access.view(caller, reach, record, { inList: false });
    return this.#db.transaction(async (tx) => {
      const history = await historyOf(tx, this.#keyring, id);
      const entry = this.#access.readEntry(caller, view, 'history', {
        versions: history.versions.map((v) => v.version),
        ...emergencyDetails(reach, patientIdsOf(record)),
      });
      await scopeOf(this.#db, caller).audit(tx, entry.event, entry.details);
      return history;
    });
  }

  /**
   * What the audit trail holds about one of the caller's own psychotherapy notes, oldest first: the one read path
   * that opens those sealed entries (decision 027). Anyone else's, or an ordinary note, answers not found. Reading
   * it is itself a sealed PSYCHOTHERAPY_NOTE_ACCESS entry.
   */
  async psychotherapyActivity(caller: Caller, id: string) {
    const reach = await this.#access.contentReach(caller);
    const record = await this.#access.find(caller, 'note:read', id, reach);
    if (!record.note.isPrivate || record.note.authorId !== caller.user.id) throw notFound('noteMessages.notFound');
    const view: NoteView = { record, contentVisible: false, isAuthor: true };
    return this.#db.transaction(async (tx) => {
      const entries = await findOwnSealedEntries(tx, this.#keyring, caller.user.id, (details) => {
        const noteIds = details.noteIds;
        return details.noteId === id || (Array.isArray(noteIds) && noteIds.includes(id));
      });
      const entry = this.#access.readEntry(caller, view, 'activity');
      await scopeOf(this.#db, caller).audit(tx, entry.event, entry.details);
      return entries.map((entry) => ({
        at: entry.timestamp,
        event: entry.event,
        action: typeof entry.details.action === 'string' ? entry.details.action : null,
      }));
    });
  }

  // Changes (note-changes.ts) -----------------------------------------------------------------------------

  create(caller: Caller, input: unknown): Promise<NoteView> {
    return this.#changes.create(caller, input);
  }

  update(caller: Caller, input: unknown): Promise<NoteView> {
    return this.#changes.update(caller, input);
  }

  /** A draft that was never signed can be deleted by its author; a note that was signed once is kept. */
  delete(caller: Caller, id: string): Promise<{ id: string }> {
    return this.#changes.delete(caller, id);
  }

  sign(caller: Caller, meta: RequestMeta, input: unknown): Promise<NoteView> {
    return this.#changes.sign(caller, meta, input);
  }

  unlock(caller: Caller, input: unknown): Promise<NoteView> {
    return this.#changes.unlock(caller, input);
  }

  /** An addendum to a signed note, by anyone who may read its content and write notes; signed when written. */
  async addAddendum(caller: Caller, meta: RequestMeta, input: unknown) {
    return this.get(caller, await this.#changes.addAddendum(caller, meta, input));
  }

  /** Re-indexes the notes indexed under another search key (AUTH_SECRET changed), at start. Answers how many. */
  reindexSearch(): Promise<number> {
    return this.#changes.reindexSearch();
  }

  // Templates (note-templates.ts) --------------------------------------------------------------------------

  /** The editor's templates (active ones; administrators also see the inactive). */
  templates(caller: Caller) {
    return this.#templates.list(caller);
  }

  saveTemplate(caller: Caller, input: unknown) {
    return this.#templates.save(caller, input);
  }

  /** Adds the missing built-in templates and brings those no administrator changed to this version's text. */
  seedTemplates(): Promise<void> {
    return this.#templates.seed();
  }

  // ------------------------------------------------------------------------------------------------------

  /**
   * The patient must be the caller's to see, the appointment that patient's and the caller's to see. (Here rather
   * than in note-changes.ts: the appointments' repository is read by this file only, decision 053.)
   */
  async #checkLinks(caller: Caller, data: Pick<NoteData, 'patientId' | 'appointmentId' | 'templateId'>) {
    const scope = scopeOf(this.#db, caller);
    if (data.templateId && !(await noteTemplateExists(this.#db, data.templateId))) {
      throw fieldError('templateId', 'noteMessages.templateNotFound');
    }
    if (data.patientId) {
      const reach = await scope.reach('patient:read', { message: 'noteMessages.patientNotYours' });
      const patient = isUuid(data.patientId)
        ? await findVisiblePatient(this.#db, data.patientId, reach, this.#keyring)
        : undefined;
      if (!patient) throw fieldError('patientId', 'noteMessages.patientNotYours');
    }
    if (data.appointmentId) {
      const reach = await scope.reach('appointment:read');
      const appointment = isUuid(data.appointmentId)
        ? await findVisibleAppointment(this.#db, data.appointmentId, reach, this.#keyring)
        : undefined;
      if (!appointment || appointment.patientId !== data.patientId) {
        throw fieldError('appointmentId', 'noteMessages.appointmentNotPatients');
      }
    }
  }
}

/** The tags stored as JSON text (encrypted): read back as a list. */
export function tagsOf(record: NoteRecord): string[] {
  return JSON.parse(record.note.tags) as string[];
}
