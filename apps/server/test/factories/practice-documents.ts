/**
 * Practice documents for server tests (decision 066): a document created by an administrator through the API, a
 * new version of it, and a patient's signature of its current version.
 */
import type { TestClient } from '../helpers.ts';
import { dataOf, nextSerial } from './graphql.ts';

export const PRACTICE_DOCUMENT_FIELDS = `id kind requiresSignature active
  currentVersion { id documentId version titleEn titleEs bodyEn bodyEs textHash resignRequired createdByName createdAt }`;
const CREATE = `mutation ($input: CreatePracticeDocumentInput!) { createPracticeDocument(input: $input) { ${PRACTICE_DOCUMENT_FIELDS} } }`;
const UPDATE = `mutation ($input: UpdatePracticeDocumentInput!) { updatePracticeDocument(input: $input) { ${PRACTICE_DOCUMENT_FIELDS} } }`;
const SIGN = `mutation ($input: SignPracticeDocumentInput!) {
  signPracticeDocument(input: $input) { status validSignature { id version typedName method } } }`;

export interface PracticeDocumentData {
  id: string;
  kind: string;
  requiresSignature: boolean;
  active: boolean;
  currentVersion: {
    id: string;
    documentId: string;
    version: number;
    titleEn: string;
    titleEs: string | null;
    bodyEn: string;
    bodyEs: string | null;
    textHash: string;
    resignRequired: boolean;
    createdByName: string | null;
    createdAt: string;
  };
}

/** The texts and settings of a document; `fields` replaces any of them. */
export function documentInput(fields: Record<string, unknown> = {}) {
  const n = nextSerial();
  return {
    titleEn: `Consent for group sessions ${n}`,
    titleEs: `Consentimiento para sesiones de grupo ${n}`,
    bodyEn: '# Group sessions\n\nYou agree to keep what others say **private**.\n\n- Be on time\n- Stay muted',
    bodyEs: '# Sesiones de grupo\n\nAcepta mantener **en privado** lo que digan otros.',
    requiresSignature: true,
    active: true,
    ...fields,
  };
}

/** A custom document created by `admin` (any administrator). */
export async function createPracticeDocument(
  admin: TestClient,
  fields: Record<string, unknown> = {},
): Promise<PracticeDocumentData> {
  const input = { kind: 'custom', ...documentInput(fields) };
  return dataOf(await admin.gql<{ createPracticeDocument: PracticeDocumentData }>(CREATE, { input }))
    .createPracticeDocument;
}

/** Saves the document as `input` says (a new version when a text changed). */
export function updatePracticeDocument(admin: TestClient, input: Record<string, unknown>) {
  return admin.gql<{ updatePracticeDocument: PracticeDocumentData }>(UPDATE, { input });
}

/** The patient signs a version (their typed name, "I agree" ticked unless `agreed` says otherwise). */
export function signPracticeDocument(patient: TestClient, input: Record<string, unknown>) {
  return patient.gql<{
    signPracticeDocument: {
      status: string;
      validSignature: { id: string; version: number; typedName: string | null; method: string } | null;
    };
  }>(SIGN, { input: { typedName: 'Marta Signer', agreed: true, ...input } });
}
