import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PRACTICE_DOCUMENT_KINDS,
  PRACTICE_DOCUMENT_STATUSES,
  PRACTICE_SIGNATURE_METHODS,
  type CreatePracticeDocumentInputSchema,
  type RecordPaperSignatureInputSchema,
  type SignPracticeDocumentInputSchema,
  type UpdatePracticeDocumentInputSchema,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const practiceDocumentQueryKeys = {
  all: ['practice-documents'] as const,
  list: ['practice-documents', 'list'] as const,
  versions: (documentId: string) => ['practice-documents', 'versions', documentId] as const,
  mine: ['practice-documents', 'mine'] as const,
  mineOne: (documentId: string) => ['practice-documents', 'mine', documentId] as const,
  patient: (patientId: string) => ['practice-documents', 'patient', patientId] as const,
};

const VersionSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  version: z.number(),
  titleEn: z.string(),
  titleEs: z.string().nullable(),
  bodyEn: z.string(),
  bodyEs: z.string().nullable(),
  textHash: z.string(),
  resignRequired: z.boolean(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PracticeDocumentVersion = z.infer<typeof VersionSchema>;

const DocumentSchema = z.object({
  id: z.string(),
  kind: z.enum(PRACTICE_DOCUMENT_KINDS),
  requiresSignature: z.boolean(),
  active: z.boolean(),
  updatedAt: z.string(),
  currentVersion: VersionSchema,
});
export type PracticeDocument = z.infer<typeof DocumentSchema>;

const SignatureSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  versionId: z.string(),
  version: z.number(),
  textHash: z.string(),
  method: z.enum(PRACTICE_SIGNATURE_METHODS),
  signedAt: z.string(),
  typedName: z.string().nullable(),
  paperSignedOn: z.string().nullable(),
  recordedByName: z.string().nullable(),
});
export type PracticeDocumentSignature = z.infer<typeof SignatureSchema>;

const StandingSchema = z.object({
  document: DocumentSchema,
  status: z.enum(PRACTICE_DOCUMENT_STATUSES),
  validSignature: SignatureSchema.nullable(),
  signatures: z.array(SignatureSchema),
});
export type PatientPracticeDocument = z.infer<typeof StandingSchema>;

const VERSION_FIELDS =
  'id documentId version titleEn titleEs bodyEn bodyEs textHash resignRequired createdByName createdAt';
const DOCUMENT_FIELDS = `id kind requiresSignature active updatedAt currentVersion { ${VERSION_FIELDS} }`;
const SIGNATURE_FIELDS =
  'id documentId versionId version textHash method signedAt typedName paperSignedOn recordedByName';
const STANDING_FIELDS = `status document { ${DOCUMENT_FIELDS} } validSignature { ${SIGNATURE_FIELDS} } signatures { ${SIGNATURE_FIELDS} }`;

/** The practice's documents (administrators). */
export function usePracticeDocuments() {
  return useQuery({
    queryKey: practiceDocumentQueryKeys.list,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PracticeDocuments { practiceDocuments { ${DOCUMENT_FIELDS} } }`,
          z.object({ practiceDocuments: z.array(DocumentSchema) }),
          {},
          { signal },
        )
      ).practiceDocuments,
  });
}

/** A document's versions, newest first (administrators). */
export function usePracticeDocumentVersions(documentId: string) {
  return useQuery({
    queryKey: practiceDocumentQueryKeys.versions(documentId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PracticeDocumentVersions($documentId: ID!) { practiceDocumentVersions(documentId: $documentId) { ${VERSION_FIELDS} } }`,
          z.object({ practiceDocumentVersions: z.array(VersionSchema) }),
          { documentId },
          { signal },
        )
      ).practiceDocumentVersions,
  });
}

export function useCreatePracticeDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: z.output<typeof CreatePracticeDocumentInputSchema>) =>
      (
        await graphqlRequest(
          `mutation CreatePracticeDocument($input: CreatePracticeDocumentInput!) { createPracticeDocument(input: $input) { ${DOCUMENT_FIELDS} } }`,
          z.object({ createPracticeDocument: DocumentSchema }),
          { input },
        )
      ).createPracticeDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: practiceDocumentQueryKeys.all }),
  });
}

export function useUpdatePracticeDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: z.output<typeof UpdatePracticeDocumentInputSchema>) =>
      (
        await graphqlRequest(
          `mutation UpdatePracticeDocument($input: UpdatePracticeDocumentInput!) { updatePracticeDocument(input: $input) { ${DOCUMENT_FIELDS} } }`,
          z.object({ updatePracticeDocument: DocumentSchema }),
          { input },
        )
      ).updatePracticeDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: practiceDocumentQueryKeys.all }),
  });
}

/** The signed-in patient's documents and where they stand (the server audits the read). */
export function useMyPracticeDocuments() {
  return useQuery({
    queryKey: practiceDocumentQueryKeys.mine,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyPracticeDocuments { myPracticeDocuments { ${STANDING_FIELDS} } }`,
          z.object({ myPracticeDocuments: z.array(StandingSchema) }),
          {},
          { signal },
        )
      ).myPracticeDocuments,
  });
}

/** One of the patient's documents, its current version to read (audited as a view). */
export function useMyPracticeDocument(documentId: string) {
  return useQuery({
    queryKey: practiceDocumentQueryKeys.mineOne(documentId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyPracticeDocument($documentId: ID!) { myPracticeDocument(documentId: $documentId) { ${STANDING_FIELDS} } }`,
          z.object({ myPracticeDocument: StandingSchema }),
          { documentId },
          { signal },
        )
      ).myPracticeDocument,
  });
}

export function useSignPracticeDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: z.output<typeof SignPracticeDocumentInputSchema>) =>
      (
        await graphqlRequest(
          `mutation SignPracticeDocument($input: SignPracticeDocumentInput!) { signPracticeDocument(input: $input) { ${STANDING_FIELDS} } }`,
          z.object({ signPracticeDocument: StandingSchema }),
          { input },
        )
      ).signPracticeDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: practiceDocumentQueryKeys.mine }),
  });
}

/** A patient's documents and signatures (their provider, administrators; audited). */
export function usePatientPracticeDocuments(patientId: string) {
  return useQuery({
    queryKey: practiceDocumentQueryKeys.patient(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientPracticeDocuments($patientId: ID!) { patientPracticeDocuments(patientId: $patientId) { ${STANDING_FIELDS} } }`,
          z.object({ patientPracticeDocuments: z.array(StandingSchema) }),
          { patientId },
          { signal },
        )
      ).patientPracticeDocuments,
  });
}

export function useRecordPaperSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: z.output<typeof RecordPaperSignatureInputSchema>) =>
      (
        await graphqlRequest(
          `mutation RecordPaperSignature($input: RecordPaperSignatureInput!) { recordPaperSignature(input: $input) { ${STANDING_FIELDS} } }`,
          z.object({ recordPaperSignature: StandingSchema }),
          { input },
        )
      ).recordPaperSignature,
    onSuccess: (_result, input) =>
      queryClient.invalidateQueries({ queryKey: practiceDocumentQueryKeys.patient(input.patientId) }),
  });
}
