/**
 * The practice's documents and their signatures (issue 28, decision 066) against the real server: the starting
 * texts; versions with the SHA-256 of their exact texts, encrypted; a patient signs the current version (typed
 * name, "I agree", client address and user agent kept, encrypted); a new version that asks for a new signature
 * reopens the document, one that does not keeps the signature; the signed copy as a PDF read back with pdftotext;
 * a paper signature recorded by the provider; who reaches what; bad input refused with nothing written.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_MESSAGES, PRACTICE_DOCUMENT_MESSAGES, signedCopyPath } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import {
  practiceDocumentSignatures,
  practiceDocumentVersions,
} from '../src/practice-documents/practice-documents.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import {
  createPracticeDocument,
  documentInput,
  signPracticeDocument,
  updatePracticeDocument,
  type PracticeDocumentData,
} from './factories/practice-documents.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const LIST =
  '{ practiceDocuments { id kind requiresSignature active currentVersion { version titleEn titleEs bodyEn bodyEs } } }';
const VERSIONS =
  'query ($id: ID!) { practiceDocumentVersions(documentId: $id) { id version textHash resignRequired } }';
const STATUS_FIELDS = `status document { id kind currentVersion { id version } }
  validSignature { id version method typedName paperSignedOn recordedByName }
  signatures { id version method }`;
const MINE = `{ myPracticeDocuments { ${STATUS_FIELDS} } }`;
const MINE_ONE = `query ($id: ID!) { myPracticeDocument(documentId: $id) { ${STATUS_FIELDS} } }`;
const PATIENT_DOCUMENTS = `query ($patientId: ID!) { patientPracticeDocuments(patientId: $patientId) { ${STATUS_FIELDS} } }`;
const RECORD_PAPER = `mutation ($input: RecordPaperSignatureInput!) { recordPaperSignature(input: $input) { ${STATUS_FIELDS} } }`;

interface Standing {
  status: string;
  document: { id: string; kind: string; currentVersion: { id: string; version: number } };
  validSignature: {
    id: string;
    version: number;
    method: string;
    typedName: string | null;
    paperSignedOn: string | null;
    recordedByName: string | null;
  } | null;
  signatures: { id: string; version: number; method: string }[];
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let patientId: string;
let document: PracticeDocumentData;

const db = () => t.runtime.database.db;
const service = () => t.runtime.services.practiceDocuments;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

async function standingOf(client: TestClient, documentId: string): Promise<Standing | undefined> {
  const response = await client.gql<{ myPracticeDocuments: Standing[] }>(MINE);
  expect(response.errors).toBeUndefined();
  return response.data!.myPracticeDocuments.find((d) => d.document.id === documentId);
}

async function eventsFor(event: string, id: string) {
  return db()
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->'patientIds' ? ${id}`));
}

async function rowCounts() {
  const [versions] = await db().select({ n: count() }).from(practiceDocumentVersions);
  const [signatures] = await db().select({ n: count() }).from(practiceDocumentSignatures);
  return { versions: versions!.n, signatures: signatures!.n };
}

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'signed-copy-'));
  const file = path.join(dir, 'copy.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2 } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Marta', lastName: 'Signer', email: 'marta.signer@example.net', dateOfBirth: '1985-07-08' },
  }));
  document = await createPracticeDocument(admin);
});

describe('the documents', () => {
  it('starts with the four example texts, in English and Spanish, marked as examples', async () => {
    const response = await admin.gql<{
      practiceDocuments: {
        kind: string;
        requiresSignature: boolean;
        active: boolean;
        currentVersion: { version: number; bodyEn: string; bodyEs: string | null };
      }[];
    }>(LIST);
    const builtIn = response.data!.practiceDocuments.filter((d) => d.kind !== 'custom');
    expect(builtIn.map((d) => d.kind)).toEqual([
      'telehealth-consent',
      'privacy-notice',
      'financial-policy',
      'cancellation-policy',
    ]);
    for (const d of builtIn) {
      expect(d).toMatchObject({ requiresSignature: true, active: true, currentVersion: { version: 1 } });
      expect(d.currentVersion.bodyEn).toContain('Example text');
      expect(d.currentVersion.bodyEs).toContain('Texto de ejemplo');
    }
  });

  it('keeps each version with the SHA-256 of its exact texts, encrypted at rest', async () => {
    const v = document.currentVersion;
    const expected = createHash('sha256')
      .update(JSON.stringify([v.titleEn, v.bodyEn, v.titleEs, v.bodyEs]), 'utf8')
      .digest('hex');
    expect(v).toMatchObject({
      version: 1,
      textHash: expected,
      resignRequired: true,
      createdByName: expect.any(String) as string,
    });
    const [raw] = await db()
      .select({ titleEn: practiceDocumentVersions.titleEn, bodyEn: practiceDocumentVersions.bodyEn })
      .from(practiceDocumentVersions)
      .where(eq(practiceDocumentVersions.id, v.id));
    expect(raw!.titleEn).toMatch(/^enc:/);
    expect(raw!.bodyEn).toMatch(/^enc:/);
  });

  it('refuses a second document of a built-in kind and bad input, writing nothing', async () => {
    const before = await rowCounts();
    const taken = await admin.gql(
      'mutation ($input: CreatePracticeDocumentInput!) { createPracticeDocument(input: $input) { id } }',
      { input: { kind: 'telehealth-consent', ...documentInput() } },
    );
    expect(errorOf(taken).fields).toEqual([
      expect.objectContaining({ field: 'kind', messageId: 'practiceDocumentMessages.kindTaken' }),
    ]);
    const bad = await admin.gql(
      'mutation ($input: CreatePracticeDocumentInput!) { createPracticeDocument(input: $input) { id } }',
      { input: { kind: 'waiver', ...documentInput({ titleEn: 'Consent <script>', bodyEn: '   ' }) } },
    );
    expect(errorOf(bad).code).toBe('BAD_USER_INPUT');
    expect(
      errorOf(bad)
        .fields?.map((f) => f.field)
        .sort(),
    ).toEqual(['bodyEn', 'kind', 'titleEn']);
    // A changed text without saying whether patients sign again.
    const unsaid = await updatePracticeDocument(admin, { id: document.id, ...documentInput({ bodyEn: 'Changed.' }) });
    expect(errorOf(unsaid).fields).toEqual([
      expect.objectContaining({ field: 'resignRequired', messageId: 'practiceDocumentMessages.chooseResign' }),
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it('is not for providers or patients to manage', async () => {
    for (const client of [provider, patient]) {
      const response = await client.gql(LIST);
      expect(errorOf(response)).toMatchObject({ code: 'FORBIDDEN', message: PRACTICE_DOCUMENT_MESSAGES.cannotManage });
    }
  });
});

describe('signing', () => {
  it('lists the document as to sign, and audits reading it', async () => {
    expect((await standingOf(patient, document.id))?.status).toBe('to-sign');
    const one = await patient.gql<{ myPracticeDocument: Standing }>(MINE_ONE, { id: document.id });
    expect(one.data!.myPracticeDocument.document.currentVersion.id).toBe(document.currentVersion.id);
    const views = await eventsFor('PRACTICE_DOCUMENT_VIEW', patientId);
    expect(views.some((v) => (v.details as { part?: string }).part === 'document')).toBe(true);
  });

  it('refuses a signature without "I agree" or a name, writing nothing', async () => {
    const before = await rowCounts();
    const unticked = await signPracticeDocument(patient, { versionId: document.currentVersion.id, agreed: false });
    expect(errorOf(unticked).fields).toEqual([
      expect.objectContaining({ field: 'agreed', messageId: 'practiceDocumentMessages.mustAgree' }),
    ]);
    const nameless = await signPracticeDocument(patient, { versionId: document.currentVersion.id, typedName: '  ' });
    expect(errorOf(nameless).fields).toEqual([
      expect.objectContaining({ field: 'typedName', messageId: 'practiceDocumentMessages.nameRequired' }),
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it('keeps the exact version, its hash, the typed name, the time, the address and the user agent, encrypted', async () => {
    const before = Date.now();
    const signed = await patient.gql<{ signPracticeDocument: Standing }>(
      `mutation ($input: SignPracticeDocumentInput!) { signPracticeDocument(input: $input) { ${STATUS_FIELDS} } }`,
      { input: { versionId: document.currentVersion.id, typedName: 'Marta Signer', agreed: true } },
      { 'user-agent': 'SigningBrowser/1.0 (test)' },
    );
    expect(signed.errors).toBeUndefined();
    expect(signed.data!.signPracticeDocument).toMatchObject({
      status: 'signed',
      validSignature: { version: 1, method: 'electronic', typedName: 'Marta Signer' },
    });
    const [row] = await db()
      .select()
      .from(practiceDocumentSignatures)
      .where(eq(practiceDocumentSignatures.id, signed.data!.signPracticeDocument.validSignature!.id));
    expect(row).toMatchObject({
      versionId: document.currentVersion.id,
      textHash: document.currentVersion.textHash,
      patientId,
      method: 'electronic',
    });
    expect(row!.signedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    for (const stored of [row!.typedName, row!.clientAddress, row!.userAgent]) expect(stored).toMatch(/^enc:/);
    const facts = t.runtime.keyring;
    expect(
      facts.decrypt(row!.userAgent!, { table: 'practice_document_signatures', column: 'user_agent', id: row!.id }),
    ).toBe('SigningBrowser/1.0 (test)');
    const [entry] = await eventsFor('PRACTICE_DOCUMENT_SIGN', patientId);
    expect(entry!.details).toMatchObject({
      documentId: document.id,
      version: 1,
      versionId: document.currentVersion.id,
    });
    expect(JSON.stringify(entry!.details)).not.toContain('Marta');
    // Once is enough.
    const again = await signPracticeDocument(patient, { versionId: document.currentVersion.id });
    expect(errorOf(again).message).toBe(PRACTICE_DOCUMENT_MESSAGES.alreadySigned);
  });

  it('keeps the signature through a new version that does not ask to sign again', async () => {
    const saved = await updatePracticeDocument(admin, {
      id: document.id,
      ...documentInput({
        titleEn: document.currentVersion.titleEn,
        bodyEn: `${document.currentVersion.bodyEn}\n\nTypo fixed.`,
      }),
      titleEs: document.currentVersion.titleEs,
      bodyEs: document.currentVersion.bodyEs,
      resignRequired: false,
    });
    expect(saved.errors).toBeUndefined();
    expect(saved.data!.updatePracticeDocument.currentVersion).toMatchObject({ version: 2, resignRequired: false });
    expect(await standingOf(patient, document.id)).toMatchObject({ status: 'signed', validSignature: { version: 1 } });
    expect((await service().outstandingFor(patientId)).map((d) => d.documentId)).not.toContain(document.id);
    // Saving the same texts again makes no version.
    const same = await updatePracticeDocument(admin, {
      id: document.id,
      titleEn: saved.data!.updatePracticeDocument.currentVersion.titleEn,
      titleEs: saved.data!.updatePracticeDocument.currentVersion.titleEs,
      bodyEn: saved.data!.updatePracticeDocument.currentVersion.bodyEn,
      bodyEs: saved.data!.updatePracticeDocument.currentVersion.bodyEs,
      requiresSignature: true,
      active: true,
    });
    expect(same.data!.updatePracticeDocument.currentVersion.version).toBe(2);
  });

  it('reopens the document with a new version that asks to sign again, and refuses the old version', async () => {
    const saved = await updatePracticeDocument(admin, {
      id: document.id,
      ...documentInput({ bodyEn: '# Group sessions\n\nNew rules: cameras on.' }),
      resignRequired: true,
    });
    const v3 = saved.data!.updatePracticeDocument.currentVersion;
    expect(v3).toMatchObject({ version: 3, resignRequired: true });
    expect(await standingOf(patient, document.id)).toMatchObject({ status: 'newer-version', validSignature: null });
    expect(await service().outstandingFor(patientId)).toContainEqual(
      expect.objectContaining({ documentId: document.id, versionId: v3.id, status: 'newer-version' }),
    );
    const old = await signPracticeDocument(patient, { versionId: document.currentVersion.id });
    expect(errorOf(old).message).toBe(PRACTICE_DOCUMENT_MESSAGES.notCurrentVersion);
    const signed = await signPracticeDocument(patient, { versionId: v3.id });
    expect(signed.data!.signPracticeDocument).toMatchObject({ status: 'signed', validSignature: { version: 3 } });
    const versions = await admin.gql<{ practiceDocumentVersions: { version: number }[] }>(VERSIONS, {
      id: document.id,
    });
    expect(versions.data!.practiceDocumentVersions.map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it('answers the telehealth consent for the flows built next, without audit entries of their own', async () => {
    const consent = (await standingOf(patient, await consentId()))!;
    expect(consent.status).toBe('to-sign');
    const [before] = await db().select({ n: count() }).from(auditEntries);
    expect(await service().hasValidSignature(patientId, 'telehealth-consent')).toBe(false);
    expect((await service().outstandingFor(patientId)).map((d) => d.kind)).toContain('telehealth-consent');
    const [after] = await db().select({ n: count() }).from(auditEntries);
    expect(after!.n).toBe(before!.n);
    await signPracticeDocument(patient, { versionId: consent.document.currentVersion.id });
    expect(await service().hasValidSignature(patientId, 'telehealth-consent')).toBe(true);
    expect((await service().outstandingFor(patientId)).map((d) => d.kind)).not.toContain('telehealth-consent');
  });
});

async function consentId(): Promise<string> {
  const response = await admin.gql<{ practiceDocuments: { id: string; kind: string }[] }>(LIST);
  return response.data!.practiceDocuments.find((d) => d.kind === 'telehealth-consent')!.id;
}

describe('the signed copy', () => {
  it('is a PDF with the text, the typed name and the time in the practice’s zone; never cached; audited', async () => {
    const standing = (await standingOf(patient, document.id))!;
    const signatureId = standing.validSignature!.id;
    const response = await t.app.inject({
      method: 'GET',
      url: signedCopyPath(signatureId),
      headers: { cookie: patient.cookie ?? '' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Group sessions');
    expect(text).toContain('New rules: cameras on.');
    expect(text).toContain('Marta Signer');
    expect(text).toContain('(America/New_York)');
    const [row] = await db()
      .select({ signedAt: practiceDocumentSignatures.signedAt, userAgent: practiceDocumentSignatures.userAgent })
      .from(practiceDocumentSignatures)
      .where(eq(practiceDocumentSignatures.id, signatureId));
    const userAgent = t.runtime.keyring.decrypt(row!.userAgent!, {
      table: 'practice_document_signatures',
      column: 'user_agent',
      id: signatureId,
    });
    expect(text).toMatch(new RegExp(`User agent\\s+${userAgent}`));
    expect(text).toMatch(/Version\s+3/);
    const versions = await admin.gql<{ practiceDocumentVersions: { version: number; textHash: string }[] }>(VERSIONS, {
      id: document.id,
    });
    expect(text).toContain(versions.data!.practiceDocumentVersions.find((v) => v.version === 3)!.textHash);
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      dateStyle: 'long',
      timeStyle: 'short',
    }).format(row!.signedAt);
    expect(text.replace(/\s+/g, ' ')).toContain(local.replace(/\s+/g, ' '));
    const downloads = await eventsFor('PRACTICE_DOCUMENT_DOWNLOAD', patientId);
    expect(downloads.map((d) => (d.details as { signatureId: string }).signatureId)).toContain(signatureId);
    // In Spanish too, on asking.
    const es = await t.app.inject({
      method: 'GET',
      url: `${signedCopyPath(signatureId)}?language=es`,
      headers: { cookie: patient.cookie ?? '' },
    });
    expect(pdfText(es.rawPayload)).toContain('Firmado por');
  });

  it('is reached by the patient’s provider and administrators, not by another provider or without a session', async () => {
    const standing = (await standingOf(patient, document.id))!;
    const url = signedCopyPath(standing.validSignature!.id);
    for (const client of [provider, admin]) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: client.cookie ?? '' } });
      expect(response.statusCode).toBe(200);
    }
    const other = await t.app.inject({ method: 'GET', url, headers: { cookie: provider2.cookie ?? '' } });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({
      errors: [{ extensions: { code: 'NOT_FOUND', messageId: 'practiceDocumentMessages.signatureNotFound' } }],
    });
    const anonymous = await t.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the chart and paper copies', () => {
  it('shows the patient’s documents to their provider and administrators, not to another provider', async () => {
    for (const client of [provider, admin]) {
      const response = await client.gql<{ patientPracticeDocuments: Standing[] }>(PATIENT_DOCUMENTS, { patientId });
      expect(response.errors).toBeUndefined();
      expect(response.data!.patientPracticeDocuments.find((d) => d.document.id === document.id)?.status).toBe('signed');
    }
    const other = await provider2.gql(PATIENT_DOCUMENTS, { patientId });
    expect(errorOf(other)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
  });

  it('records a paper copy signed, with the date and who recorded it', async () => {
    const financial = (await standingOf(patient, await idOfKind('financial-policy')))!;
    expect(financial.status).toBe('to-sign');
    const bad = await provider.gql(RECORD_PAPER, {
      input: { patientId, documentId: financial.document.id, signedOn: '2999-01-01' },
    });
    expect(errorOf(bad).fields).toEqual([
      expect.objectContaining({ field: 'signedOn', messageId: 'practiceDocumentMessages.dateInFuture' }),
    ]);
    const recorded = await provider.gql<{ recordPaperSignature: Standing }>(RECORD_PAPER, {
      input: { patientId, documentId: financial.document.id, signedOn: '2026-11-02' },
    });
    expect(recorded.errors).toBeUndefined();
    expect(recorded.data!.recordPaperSignature).toMatchObject({
      status: 'signed',
      validSignature: {
        method: 'paper',
        paperSignedOn: '2026-11-02',
        recordedByName: expect.any(String) as string,
        typedName: null,
      },
    });
    const other = await provider2.gql(RECORD_PAPER, {
      input: { patientId, documentId: financial.document.id, signedOn: '2026-11-02' },
    });
    expect(errorOf(other)).toMatchObject({ code: 'NOT_FOUND' });
    const [entry] = await eventsFor('PRACTICE_DOCUMENT_PAPER_RECORDED', patientId);
    expect(entry!.details).toMatchObject({ documentId: financial.document.id, kind: 'financial-policy' });
    const pdf = await t.app.inject({
      method: 'GET',
      url: signedCopyPath(recorded.data!.recordPaperSignature.validSignature!.id),
      headers: { cookie: admin.cookie ?? '' },
    });
    expect(pdfText(pdf.rawPayload)).toContain('2026-11-02');
  });
});

async function idOfKind(kind: string): Promise<string> {
  const response = await admin.gql<{ practiceDocuments: { id: string; kind: string }[] }>(LIST);
  return response.data!.practiceDocuments.find((d) => d.kind === kind)!.id;
}

describe('a document out of use', () => {
  it('is neither listed to the patient nor outstanding, and takes no paper signature; its settings change makes no version', async () => {
    const retired = await createPracticeDocument(admin);
    expect((await service().outstandingFor(patientId)).map((d) => d.documentId)).toContain(retired.id);
    const v = retired.currentVersion;
    const saved = await updatePracticeDocument(admin, {
      id: retired.id,
      titleEn: v.titleEn,
      titleEs: v.titleEs,
      bodyEn: v.bodyEn,
      bodyEs: v.bodyEs,
      requiresSignature: true,
      active: false,
    });
    expect(saved.data!.updatePracticeDocument).toMatchObject({ active: false, currentVersion: { version: 1 } });
    expect(await standingOf(patient, retired.id)).toBeUndefined();
    expect((await service().outstandingFor(patientId)).map((d) => d.documentId)).not.toContain(retired.id);
    const paper = await provider.gql(RECORD_PAPER, {
      input: { patientId, documentId: retired.id, signedOn: '2026-11-02' },
    });
    expect(errorOf(paper).message).toBe(PRACTICE_DOCUMENT_MESSAGES.notActive);
  });
});
