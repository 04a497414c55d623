import { and, eq, isNull } from 'drizzle-orm';
import {
  CreatePracticeDocumentInputSchema,
  documentTextIn,
  RecordPaperSignatureInputSchema,
  signatureHolds,
  SignPracticeDocumentInputSchema,
  UpdatePracticeDocumentInputSchema,
  type PracticeDocumentKind,
  type PracticeDocumentStatus,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import { isVisiblePatient, patientExists, patientRecords } from '../patients/patients.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { findUserById } from '../users/users.repository.ts';
import {
  findDocument,
  findDocumentIdOfKind,
  findSignature,
  findVersion,
  hasAnyDocument,
  insertDocument,
  insertSignature,
  insertVersion,
  listDocuments,
  listSignatures,
  listVersions,
  lockPatientDocument,
  practiceDocumentTextHash,
  updateDocumentFlags,
  type DocumentRecord,
  type SignatureRecord,
  type VersionRecord,
} from './practice-documents.repository.ts';
import { renderSignedCopy } from './signed-copy.ts';
import { STARTING_TEXTS } from './starting-texts.ts';

export type { DocumentRecord, SignatureRecord, VersionRecord };

/** A patient's standing with one document: its status, the signature that holds (if any) and all of theirs. */
export interface PatientDocument {
  document: DocumentRecord;
  status: PracticeDocumentStatus;
  validSignature: SignatureRecord | null;
  signatures: SignatureRecord[];
}

/** What the flows built on the documents ask (`outstandingFor`). */
export interface OutstandingDocument {
  documentId: string;
  versionId: string;
  kind: PracticeDocumentKind;
  titleEn: string;
  titleEs: string | null;
  status: Extract<PracticeDocumentStatus, 'to-sign' | 'newer-version'>;
}

/** A signed copy ready to send. */
export interface SignedCopyFile {
  fileName: string;
  data: Buffer;
}

/** A patient's documents' status from the documents and their signatures. */
function standing(document: DocumentRecord, signatures: readonly SignatureRecord[]): PatientDocument {
  const own = signatures.filter((s) => s.row.documentId === document.document.id);
  const valid = own.find((s) => signatureHolds(s.version, document.resignVersions)) ?? null;
  let status: PracticeDocumentStatus;
  if (!document.document.requiresSignature) status = 'read-only';
  else if (valid) status = 'signed';
  else status = own.length > 0 ? 'newer-version' : 'to-sign';
  return { document, status, validSignature: valid, signatures: own };
}

/**
 * The practice's documents and their signatures (issue 28, decision 066). Administrators keep the documents: each
 * change of text is a new version (number, SHA-256 of the exact texts, who, when), saying whether patients must
 * sign again. A patient reads their documents and signs the current version (typed name, "I agree"); the signature
 * keeps the exact version, its hash, the time, the client address and user agent, the account. Staff (the
 * patient's provider, administrators) see each patient's documents, download signed copies (PDF) and record a
 * paper copy signed. Every view, signature, download and paper record is audited with ids only.
 */
export class PracticeDocumentsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: SettingsService;

  constructor(options: { db: Database; keyring: Keyring; settings: SettingsService }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#settings = options.settings;
  }

  // ---- Administrators: the documents -------------------------------------------------------------------------

  /** Every document with its current version (administrators). */
  async list(caller: Caller): Promise<DocumentRecord[]> {
    await scopeOf(this.#db, caller).reach('practice-document:manage');
    return listDocuments(this.#db, this.#keyring);
  }

  /** A document's versions, newest first (administrators): the version history. */
  async versions(caller: Caller, documentId: string): Promise<VersionRecord[]> {
    await scopeOf(this.#db, caller).reach('practice-document:manage');
    const document = await this.#existingDocument(this.#db, documentId);
    return listVersions(this.#db, this.#keyring, document.document.id);
  }

  /** A new document and its first version. */
  async create(caller: Caller, input: unknown): Promise<DocumentRecord> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('practice-document:manage');
    const data = parseInput(CreatePracticeDocumentInputSchema, input);
    const id = await this.#db.transaction(async (tx) => {
      if (data.kind !== 'custom' && (await findDocumentIdOfKind(tx, data.kind))) {
        throw fieldError('kind', 'practiceDocumentMessages.kindTaken');
      }
      const id = await insertDocument(tx, { ...data, by: caller.user.id });
      const versionId = await insertVersion(tx, this.#keyring, {
        ...data,
        documentId: id,
        version: 1,
        resignRequired: true,
        by: caller.user.id,
      });
      await scope.audit(tx, 'PRACTICE_DOCUMENT_SAVE', {
        documentId: id,
        kind: data.kind,
        versionId,
        version: 1,
        resignRequired: true,
      });
      return id;
    });
    return (await findDocument(this.#db, this.#keyring, id))!;
  }

  /**
   * Saves a document: its settings, and a new version when a text changed (the texts' hash differs from the
   * current one's), which must say whether patients sign again.
   */
  async update(caller: Caller, input: unknown): Promise<DocumentRecord> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('practice-document:manage');
    const data = parseInput(UpdatePracticeDocumentInputSchema, input);
    await this.#db.transaction(async (tx) => {
      const existing = await this.#existingDocument(tx, data.id, { lock: true });
      const changed = practiceDocumentTextHash(data) !== existing.current.row.textHash;
      let version: { versionId: string; version: number; resignRequired: boolean } | null = null;
      if (changed) {
        if (data.resignRequired === null) throw fieldError('resignRequired', 'practiceDocumentMessages.chooseResign');
        const next = existing.current.row.version + 1;
        const versionId = await insertVersion(tx, this.#keyring, {
          ...data,
          documentId: data.id,
          version: next,
          resignRequired: data.resignRequired,
          by: caller.user.id,
        });
        version = { versionId, version: next, resignRequired: data.resignRequired };
      }
      await updateDocumentFlags(tx, data.id, { requiresSignature: data.requiresSignature, active: data.active });
      await scope.audit(tx, 'PRACTICE_DOCUMENT_SAVE', {
        documentId: data.id,
        kind: existing.document.kind,
        requiresSignature: data.requiresSignature,
        active: data.active,
        ...(version ?? { newVersion: false }),
      });
    });
    return (await findDocument(this.#db, this.#keyring, data.id))!;
  }

  // ---- Patients: their own documents -------------------------------------------------------------------------

  /** The patient's active documents with their status (the portal's list). Audited. */
  async mine(caller: Caller): Promise<PatientDocument[]> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('practice-document:read');
    const patientId = await this.#ownPatientId(caller);
    return this.#patientDocuments(scope, patientId, 'list');
  }

  /** One of the patient's active documents, its current version to read. Audited as a view. */
  async mineOne(caller: Caller, documentId: string): Promise<PatientDocument> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('practice-document:read');
    const patientId = await this.#ownPatientId(caller);
    return this.#db.transaction(async (tx) => {
      const [document] = isUuid(documentId)
        ? await listDocuments(tx, this.#keyring, { activeOnly: true, ids: [documentId] })
        : [];
      if (!document) throw notFound('practiceDocumentMessages.notFound');
      const signatures = await listSignatures(tx, this.#keyring, patientId, [documentId]);
      await scope.audit(tx, 'PRACTICE_DOCUMENT_VIEW', {
        part: 'document',
        patientIds: [patientId],
        documentIds: [documentId],
        versionIds: [document.current.row.id],
      });
      return standing(document, signatures);
    });
  }

  /** The patient signs the current version of a document (typed name, "I agree"). */
  async sign(caller: Caller, input: unknown): Promise<PatientDocument> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('practice-document:sign');
    const data = parseInput(SignPracticeDocumentInputSchema, input);
    let patientId: string;
    if (data.patientId) {
      await this.#reachPatient(scope, 'practice-document:sign', reach, data.patientId);
      patientId = data.patientId;
    } else {
      patientId = await this.#ownPatientId(caller);
    }
    const version = isUuid(data.versionId) ? await findVersion(this.#db, this.#keyring, data.versionId) : undefined;
    if (!version) throw notFound('practiceDocumentMessages.notFound');
    const documentId = version.row.documentId;
    await this.#db.transaction(async (tx) => {
      await lockPatientDocument(tx, patientId, documentId);
      const document = await findDocument(tx, this.#keyring, documentId);
      if (!document?.document.active) throw notFound('practiceDocumentMessages.notFound');
      if (!document.document.requiresSignature) throw badUserInput('practiceDocumentMessages.notForSigning');
      if (document.current.row.id !== version.row.id) throw badUserInput('practiceDocumentMessages.notCurrentVersion');
      const signatures = await listSignatures(tx, this.#keyring, patientId, [documentId]);
      if (signatures.some((s) => s.row.versionId === version.row.id)) {
        throw badUserInput('practiceDocumentMessages.alreadySigned');
      }
      const signatureId = await insertSignature(tx, this.#keyring, {
        documentId,
        versionId: version.row.id,
        textHash: version.row.textHash,
        patientId,
        method: 'electronic',
        typedName: data.typedName,
        clientAddress: caller.actor.clientIp,
        userAgent: caller.actor.userAgent,
        accountId: caller.user.id,
      });
      await scope.audit(tx, 'PRACTICE_DOCUMENT_SIGN', {
        patientIds: [patientId],
        documentId,
        kind: document.document.kind,
        versionId: version.row.id,
        version: version.row.version,
        signatureId,
      });
    });
    return this.#standingOf(patientId, documentId);
  }

  // ---- Staff: a patient's documents --------------------------------------------------------------------------

  /** A patient's active documents with their status and signatures (the chart's panel). Audited. */
  async forPatient(caller: Caller, patientId: string): Promise<PatientDocument[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('practice-document:read');
    await this.#reachPatient(scope, 'practice-document:read', reach, patientId);
    return this.#patientDocuments(scope, patientId, 'chart');
  }

  /** A provider or an administrator records that the patient signed a paper copy of the current version. */
  async recordPaper(caller: Caller, input: unknown): Promise<PatientDocument> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('practice-document:record-paper');
    const data = parseInput(RecordPaperSignatureInputSchema, input);
    await this.#reachPatient(scope, 'practice-document:record-paper', reach, data.patientId);
    await this.#db.transaction(async (tx) => {
      await lockPatientDocument(tx, data.patientId, data.documentId);
      const document = isUuid(data.documentId) ? await findDocument(tx, this.#keyring, data.documentId) : undefined;
      if (!document) throw notFound('practiceDocumentMessages.notFound');
      if (!document.document.active) throw badUserInput('practiceDocumentMessages.notActive');
      if (!document.document.requiresSignature) throw badUserInput('practiceDocumentMessages.notForSigning');
      const signatureId = await insertSignature(tx, this.#keyring, {
        documentId: data.documentId,
        versionId: document.current.row.id,
        textHash: document.current.row.textHash,
        patientId: data.patientId,
        method: 'paper',
        paperSignedOn: data.signedOn,
        recordedBy: caller.user.id,
      });
      await scope.audit(tx, 'PRACTICE_DOCUMENT_PAPER_RECORDED', {
        patientIds: [data.patientId],
        documentId: data.documentId,
        kind: document.document.kind,
        versionId: document.current.row.id,
        version: document.current.row.version,
        signatureId,
      });
    });
    return this.#standingOf(data.patientId, data.documentId);
  }

  /** A signed copy as a PDF, for the patient or the staff who reach them. Audited as a download. */
  async signedCopy(caller: Caller, signatureId: string, language: string): Promise<SignedCopyFile> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('practice-document:read');
    const patientReach = patientReachOf(reach);
    const signature = await scope.find('practice-document:read', signatureId, {
      read: async (db, id) => {
        const found = await findSignature(db, this.#keyring, id);
        return found && (await isVisiblePatient(db, found.row.patientId, patientReach)) ? found : undefined;
      },
      exists: (db, id) => findSignature(db, this.#keyring, id),
      missing: 'practiceDocumentMessages.signatureNotFound',
      denial: (existing) => ({ signatureIds: [signatureId], patientIds: [existing.row.patientId] }),
    });
    const version = (await findVersion(this.#db, this.#keyring, signature.row.versionId))!;
    const text = documentTextIn(version.row, language);
    const [patient] = await this.#patientNames(this.#db, signature.row.patientId);
    const account = signature.row.accountId ? await findUserById(this.#db, signature.row.accountId) : undefined;
    const settings = this.#settings.current();
    const data = await renderSignedCopy({
      language: text.language,
      practiceName: settings.practiceName,
      title: text.title,
      body: text.body,
      version: signature.version,
      textHash: signature.row.textHash,
      method: signature.row.method === 'paper' ? 'paper' : 'electronic',
      typedName: signature.row.typedName,
      signedAt: signature.row.signedAt,
      paperSignedOn: signature.row.paperSignedOn,
      recordedByName: signature.recordedByName,
      accountEmail: account ? `${account.name} <${account.email}>` : null,
      clientAddress: signature.row.clientAddress,
      userAgent: signature.row.userAgent,
      patientName: patient ? `${patient.firstName} ${patient.lastName}` : '',
      timeZone: settings.timeZone,
    });
    await scope.audit(this.#db, 'PRACTICE_DOCUMENT_DOWNLOAD', {
      patientIds: [signature.row.patientId],
      documentId: signature.row.documentId,
      versionId: signature.row.versionId,
      signatureId,
    });
    return { fileName: `signed-document-v${signature.version}.pdf`, data };
  }

  // ---- For the flows built on the documents (no audit entries of their own: callers audit) ---------------

  /** The active documents the patient must sign and has no valid signature for. */
  async outstandingFor(patientId: string): Promise<OutstandingDocument[]> {
    const documents = await listDocuments(this.#db, this.#keyring, { activeOnly: true });
    const signatures = await listSignatures(this.#db, this.#keyring, patientId);
    return documents.flatMap((document): OutstandingDocument[] => {
      const { status } = standing(document, signatures);
      if (status !== 'to-sign' && status !== 'newer-version') return [];
      return [
        {
          documentId: document.document.id,
          versionId: document.current.row.id,
          kind: document.document.kind as PracticeDocumentKind,
          titleEn: document.current.row.titleEn,
          titleEs: document.current.row.titleEs,
          status,
        },
      ];
    });
  }

  /**
   * Whether the patient holds a valid signature of the document of this kind. True too when the practice does not
   * ask for it (no such active document, or one that needs no signature): nothing is missing then.
   */
  async hasValidSignature(patientId: string, kind: Exclude<PracticeDocumentKind, 'custom'>): Promise<boolean> {
    return !(await this.withoutValidSignature([patientId], kind)).has(patientId);
  }

  /**
   * Of `patientIds`, those without a valid signature of the document of this kind: the document read once and the
   * signatures of every patient in one query (the calendar's badges ask for a page of patients). Empty when the
   * practice does not ask for it.
   */
  async withoutValidSignature(
    patientIds: readonly string[],
    kind: Exclude<PracticeDocumentKind, 'custom'>,
  ): Promise<Set<string>> {
    const id = await findDocumentIdOfKind(this.#db, kind);
    if (!id || patientIds.length === 0) return new Set();
    const document = await findDocument(this.#db, this.#keyring, id);
    if (!document?.document.active || !document.document.requiresSignature) return new Set();
    const signatures = await listSignatures(this.#db, this.#keyring, patientIds, [id]);
    return new Set(
      patientIds.filter(
        (patientId) =>
          standing(
            document,
            signatures.filter((signature) => signature.row.patientId === patientId),
          ).status !== 'signed',
      ),
    );
  }

  /**
   * Start-up work: the starting texts (examples) when the practice has no document yet. No audit entry: no person
   * acted and no patient is concerned (like the built-in note templates); the versions say "by the product" (no
   * author), and every later change by an administrator is audited.
   */
  async addStartingTexts(): Promise<void> {
    await this.#db.transaction(async (tx) => {
      if (await hasAnyDocument(tx)) return;
      for (const text of STARTING_TEXTS) {
        const documentId = await insertDocument(tx, {
          kind: text.kind,
          requiresSignature: text.requiresSignature,
          active: true,
          by: null,
        });
        await insertVersion(tx, this.#keyring, { ...text, documentId, version: 1, resignRequired: true, by: null });
      }
    });
  }

  // ---- Inside ------------------------------------------------------------------------------------------------

  async #patientDocuments(scope: Scope, patientId: string, part: 'list' | 'chart'): Promise<PatientDocument[]> {
    return this.#db.transaction(async (tx) => {
      const documents = await listDocuments(tx, this.#keyring, { activeOnly: true });
      const signatures = await listSignatures(tx, this.#keyring, patientId);
      await scope.audit(tx, 'PRACTICE_DOCUMENT_VIEW', {
        part,
        patientIds: [patientId],
        documentIds: documents.map((d) => d.document.id),
        signatureIds: signatures.map((s) => s.row.id),
      });
      return documents.map((document) => standing(document, signatures));
    });
  }

  async #standingOf(patientId: string, documentId: string): Promise<PatientDocument> {
    const document = (await findDocument(this.#db, this.#keyring, documentId))!;
    const signatures = await listSignatures(this.#db, this.#keyring, patientId, [documentId]);
    return standing(document, signatures);
  }

  async #existingDocument(executor: Executor, id: string, options: { lock?: boolean } = {}): Promise<DocumentRecord> {
    const document = isUuid(id) ? await findDocument(executor, this.#keyring, id, options) : undefined;
    if (!document) throw notFound('practiceDocumentMessages.notFound');
    return document;
  }

  /** The patient record linked to the caller's account (a patient's own documents). */
  async #ownPatientId(caller: Caller): Promise<string> {
    const p = patientRecords('p');
    const [row] = await this.#db
      .select({ id: p.id })
      .from(p)
      .where(and(eq(p.accountId, caller.user.id), isNull(p.deletedAt)))
      .limit(1);
    if (!row) throw notFound('practiceDocumentMessages.noPatientRecord');
    return row.id;
  }

  #patientNames(executor: Executor, patientId: string) {
    const p = patientRecords('p');
    return executor.select({ firstName: p.firstName, lastName: p.lastName }).from(p).where(eq(p.id, patientId));
  }

  /** The patient must be in the caller's reach: otherwise recorded and answered like a missing patient. */
  async #reachPatient(
    scope: Scope,
    action: 'practice-document:read' | 'practice-document:record-paper' | 'practice-document:sign',
    reach: Reach<'practice-document'>,
    patientId: string,
  ): Promise<void> {
    const patientReach = patientReachOf(reach);
    await scope.find(action, patientId, {
      read: (db: Executor) => isVisiblePatient(db, patientId, patientReach),
      exists: (db: Executor) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }
}

/** The patients a reach of the documents reaches: a provider's own patients, a patient's own record. */
function patientReachOf(reach: Reach<'practice-document'>): Reach<'patient'> {
  if (reach.kind === 'any') return reach;
  return { ...reach, field: reach.field === 'patientOwnerId' ? 'ownerId' : 'accountId' };
}
