import { createHash, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PracticeDocumentKind, PracticeSignatureMethod } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { practiceDocumentSignaturesEncrypted, practiceDocumentVersionsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userNameOrNullOf } from '../users/users.repository.ts';
import { practiceDocuments, practiceDocumentSignatures, practiceDocumentVersions } from './practice-documents.table.ts';

export type PracticeDocumentRow = typeof practiceDocuments.$inferSelect;
export type PracticeDocumentVersionRow = typeof practiceDocumentVersions.$inferSelect;
export type PracticeSignatureRow = typeof practiceDocumentSignatures.$inferSelect;

/** A version with who wrote it. */
export interface VersionRecord {
  row: PracticeDocumentVersionRow;
  createdByName: string | null;
}

/** A document with its current (latest) version and the versions that asked patients to sign again. */
export interface DocumentRecord {
  document: PracticeDocumentRow;
  current: VersionRecord;
  /** Version numbers whose signatures before them stop holding (the first version among them). */
  resignVersions: number[];
}

/** A signature with its version's number and the names of who signed (account) or recorded it. */
export interface SignatureRecord {
  row: PracticeSignatureRow;
  version: number;
  accountName: string | null;
  recordedByName: string | null;
}

/** The texts of a version, as the administrator saved them. */
export interface DocumentTexts {
  titleEn: string;
  titleEs: string | null;
  bodyEn: string;
  bodyEs: string | null;
}

/**
 * The SHA-256 (hex) of a version's exact texts: a JSON array of the English title and body, then the Spanish ones
 * (null when absent). JSON keeps the four apart, so moving text from one field to another changes the hash.
 */
export function practiceDocumentTextHash(texts: DocumentTexts): string {
  const canonical = JSON.stringify([texts.titleEn, texts.bodyEn, texts.titleEs, texts.bodyEs]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

function selectVersions(executor: Executor) {
  return executor
    .select({ row: practiceDocumentVersions, createdByName: userNameOrNullOf(practiceDocumentVersions.createdBy) })
    .from(practiceDocumentVersions);
}

function openVersion(keyring: Keyring, record: VersionRecord): VersionRecord {
  return { ...record, row: practiceDocumentVersionsEncrypted.open(keyring, record.row) };
}

/** The documents (all, or the active ones), each with its latest version, readable; built-in kinds first. */
export async function listDocuments(
  executor: Executor,
  keyring: Keyring,
  options: { activeOnly?: boolean; ids?: readonly string[] } = {},
): Promise<DocumentRecord[]> {
  const conditions = [];
  if (options.activeOnly) conditions.push(eq(practiceDocuments.active, true));
  if (options.ids) conditions.push(inArray(practiceDocuments.id, [...options.ids]));
  const documents = await executor
    .select()
    .from(practiceDocuments)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(
      asc(
        sql`CASE ${practiceDocuments.kind} WHEN 'telehealth-consent' THEN 0 WHEN 'privacy-notice' THEN 1
          WHEN 'financial-policy' THEN 2 WHEN 'cancellation-policy' THEN 3 ELSE 4 END`,
      ),
      asc(practiceDocuments.createdAt),
    );
  if (documents.length === 0) return [];
  const ids = documents.map((d) => d.id);
  const latest = await selectVersions(executor).where(
    and(
      inArray(practiceDocumentVersions.documentId, ids),
      sql`${practiceDocumentVersions.version} = (SELECT max(v.version) FROM practice_document_versions v
        WHERE v.document_id = ${practiceDocumentVersions.documentId})`,
    ),
  );
  const resign = await executor
    .select({ documentId: practiceDocumentVersions.documentId, version: practiceDocumentVersions.version })
    .from(practiceDocumentVersions)
    .where(and(inArray(practiceDocumentVersions.documentId, ids), eq(practiceDocumentVersions.resignRequired, true)));
  const latestByDocument = new Map(latest.map((v) => [v.row.documentId, v]));
  return documents.flatMap((document) => {
    const current = latestByDocument.get(document.id);
    if (!current) return [];
    return [
      {
        document,
        current: openVersion(keyring, current),
        resignVersions: resign.filter((r) => r.documentId === document.id).map((r) => r.version),
      },
    ];
  });
}

/** One document with its latest version, or undefined. With `lock`, its row is locked for a change. */
export async function findDocument(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DocumentRecord | undefined> {
  if (options.lock)
    await executor
      .select({ id: practiceDocuments.id })
      .from(practiceDocuments)
      .where(eq(practiceDocuments.id, id))
      .for('update');
  const [record] = await listDocuments(executor, keyring, { ids: [id] });
  return record;
}

/** The document of a built-in kind, or undefined. */
export async function findDocumentIdOfKind(
  executor: Executor,
  kind: PracticeDocumentKind,
): Promise<string | undefined> {
  const [row] = await executor
    .select({ id: practiceDocuments.id })
    .from(practiceDocuments)
    .where(eq(practiceDocuments.kind, kind));
  return row?.id;
}

/** Whether the practice has any document at all (the start-up work adds the starting texts when not). */
export async function hasAnyDocument(executor: Executor): Promise<boolean> {
  const [row] = await executor.select({ id: practiceDocuments.id }).from(practiceDocuments).limit(1);
  return row !== undefined;
}

/** Every version of a document, newest first, readable. */
export async function listVersions(executor: Executor, keyring: Keyring, documentId: string): Promise<VersionRecord[]> {
  const rows = await selectVersions(executor)
    .where(eq(practiceDocumentVersions.documentId, documentId))
    .orderBy(desc(practiceDocumentVersions.version));
  return rows.map((r) => openVersion(keyring, r));
}

/** One version, readable, or undefined. */
export async function findVersion(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<VersionRecord | undefined> {
  const [row] = await selectVersions(executor).where(eq(practiceDocumentVersions.id, id));
  return row && openVersion(keyring, row);
}

/** Adds a document (no version yet). Answers its id. */
export async function insertDocument(
  executor: Executor,
  values: { kind: PracticeDocumentKind; requiresSignature: boolean; active: boolean; by: string | null },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(practiceDocuments).values({
    id,
    kind: values.kind,
    requiresSignature: values.requiresSignature,
    active: values.active,
    createdBy: values.by,
  });
  return id;
}

/** Changes whether the document must be signed and is in use. */
export async function updateDocumentFlags(
  executor: Executor,
  id: string,
  values: { requiresSignature: boolean; active: boolean },
): Promise<void> {
  await executor
    .update(practiceDocuments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(practiceDocuments.id, id));
}

/** Adds the next version of a document (encrypted, with its hash). Answers its id. */
export async function insertVersion(
  executor: Executor,
  keyring: Keyring,
  values: DocumentTexts & { documentId: string; version: number; resignRequired: boolean; by: string | null },
): Promise<string> {
  const id = randomUUID();
  const texts = { titleEn: values.titleEn, titleEs: values.titleEs, bodyEn: values.bodyEn, bodyEs: values.bodyEs };
  await executor.insert(practiceDocumentVersions).values({
    ...practiceDocumentVersionsEncrypted.seal(keyring, id, texts),
    id,
    documentId: values.documentId,
    version: values.version,
    textHash: practiceDocumentTextHash(texts),
    resignRequired: values.resignRequired,
    createdBy: values.by,
  });
  await executor
    .update(practiceDocuments)
    .set({ updatedAt: new Date() })
    .where(eq(practiceDocuments.id, values.documentId));
  return id;
}

function selectSignatures(executor: Executor) {
  return executor
    .select({
      row: practiceDocumentSignatures,
      version: practiceDocumentVersions.version,
      accountName: userNameOrNullOf(practiceDocumentSignatures.accountId),
      recordedByName: userNameOrNullOf(practiceDocumentSignatures.recordedBy),
    })
    .from(practiceDocumentSignatures)
    .innerJoin(practiceDocumentVersions, eq(practiceDocumentVersions.id, practiceDocumentSignatures.versionId));
}

function openSignature(keyring: Keyring, record: SignatureRecord): SignatureRecord {
  return { ...record, row: practiceDocumentSignaturesEncrypted.open(keyring, record.row) };
}

/** The patient's signatures (of every document, or of `documentIds`), newest first, readable. */
export async function listSignatures(
  executor: Executor,
  keyring: Keyring,
  patientId: string | readonly string[],
  documentIds?: readonly string[],
): Promise<SignatureRecord[]> {
  const conditions = [
    typeof patientId === 'string'
      ? eq(practiceDocumentSignatures.patientId, patientId)
      : inArray(practiceDocumentSignatures.patientId, [...patientId]),
  ];
  if (documentIds) conditions.push(inArray(practiceDocumentSignatures.documentId, [...documentIds]));
  const rows = await selectSignatures(executor)
    .where(and(...conditions))
    .orderBy(desc(practiceDocumentVersions.version), desc(practiceDocumentSignatures.signedAt));
  return rows.map((r) => openSignature(keyring, r));
}

/** One signature, readable, or undefined. */
export async function findSignature(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<SignatureRecord | undefined> {
  const [row] = await selectSignatures(executor).where(eq(practiceDocumentSignatures.id, id));
  return row && openSignature(keyring, row);
}

/** Records a signature of one version (the facts encrypted). Answers its id. */
export async function insertSignature(
  executor: Executor,
  keyring: Keyring,
  values: {
    documentId: string;
    versionId: string;
    textHash: string;
    patientId: string;
    method: PracticeSignatureMethod;
    typedName?: string | null;
    clientAddress?: string | null;
    userAgent?: string | null;
    accountId?: string | null;
    paperSignedOn?: string | null;
    recordedBy?: string | null;
    signedAt?: Date;
  },
): Promise<string> {
  const id = randomUUID();
  const facts = {
    typedName: values.typedName ?? null,
    clientAddress: values.clientAddress ?? null,
    userAgent: values.userAgent ?? null,
  };
  await executor.insert(practiceDocumentSignatures).values({
    ...practiceDocumentSignaturesEncrypted.seal(keyring, id, facts),
    id,
    documentId: values.documentId,
    versionId: values.versionId,
    textHash: values.textHash,
    patientId: values.patientId,
    method: values.method,
    accountId: values.accountId ?? null,
    paperSignedOn: values.paperSignedOn ?? null,
    recordedBy: values.recordedBy ?? null,
    ...(values.signedAt ? { signedAt: values.signedAt } : {}),
  });
  return id;
}

/**
 * Takes a lock on the patient's signatures of the document until the transaction ends, so two signatures of one
 * version cannot both find it unsigned.
 */
export async function lockPatientDocument(executor: Executor, patientId: string, documentId: string): Promise<void> {
  await executor.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`practice-document:${patientId}:${documentId}`}))`,
  );
}
