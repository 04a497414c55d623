import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerCorrectionInput, CorrectionRequestInput } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const myRecordsQueryKeys = {
  all: ['my-records'] as const,
  record: ['my-records', 'record'] as const,
  sharedNotes: ['my-records', 'shared-notes'] as const,
  sharedNote: (id: string) => ['my-records', 'shared-note', id] as const,
  corrections: ['my-records', 'corrections'] as const,
  patientCorrections: (patientId: string) => ['my-records', 'patient-corrections', patientId] as const,
  accessLog: ['my-records', 'access-log'] as const,
};

const MyRecordSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  dateOfBirth: z.string(),
  phone: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  emergencyContactName: z.string().nullable(),
  emergencyContactPhone: z.string().nullable(),
  insuranceProvider: z.string().nullable(),
  allergies: z.string().nullable(),
  currentMedications: z.string().nullable(),
});
export type MyRecord = z.infer<typeof MyRecordSchema>;
const MY_RECORD_FIELDS = `id firstName lastName email dateOfBirth phone street city state zipCode emergencyContactName
  emergencyContactPhone insuranceProvider allergies currentMedications`;

/** The signed-in patient's own record (read only; the server records each reading). */
export function useMyRecord() {
  return useQuery({
    queryKey: myRecordsQueryKeys.record,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyPatientRecord { myPatientRecord { ${MY_RECORD_FIELDS} } }`,
          z.object({ myPatientRecord: MyRecordSchema }),
          {},
          { signal },
        )
      ).myPatientRecord,
  });
}

const SharedNoteSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  authorName: z.string(),
  signedAt: z.string().nullable(),
  signedByName: z.string().nullable(),
  sharedAt: z.string().nullable(),
  addendumCount: z.number(),
  addenda: z
    .array(z.object({ id: z.string(), content: z.string(), authorName: z.string(), signedAt: z.string() }))
    .nullable(),
});
export type SharedNote = z.infer<typeof SharedNoteSchema>;
const SHARED_NOTE_FIELDS = 'id title content authorName signedAt signedByName sharedAt addendumCount';

export function useSharedNotes() {
  return useQuery({
    queryKey: myRecordsQueryKeys.sharedNotes,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query SharedNotes { sharedNotes { items { ${SHARED_NOTE_FIELDS} addenda { id content authorName signedAt } } nextToken } }`,
          z.object({ sharedNotes: z.object({ items: z.array(SharedNoteSchema), nextToken: z.string().nullable() }) }),
          {},
          { signal },
        )
      ).sharedNotes.items,
  });
}

/** One shared note with its addenda: each reading is recorded by the server. */
export function useSharedNote(id: string | null) {
  return useQuery({
    queryKey: myRecordsQueryKeys.sharedNote(id ?? ''),
    enabled: id !== null,
    // Each opening is a reading (audited): never served from an older copy.
    staleTime: 0,
    gcTime: 0,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query SharedNote($id: ID!) { sharedNote(id: $id) { ${SHARED_NOTE_FIELDS} addenda { id content authorName signedAt } } }`,
          z.object({ sharedNote: SharedNoteSchema }),
          { id },
          { signal },
        )
      ).sharedNote,
  });
}

const CorrectionSchema = z.object({
  id: z.string(),
  field: z.string(),
  request: z.string(),
  status: z.enum(['pending', 'accepted', 'declined']),
  response: z.string().nullable(),
  answeredByName: z.string().nullable(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Correction = z.infer<typeof CorrectionSchema>;
const CORRECTION_FIELDS = 'id field request status response answeredByName answeredAt createdAt';

export function useMyCorrections() {
  return useQuery({
    queryKey: myRecordsQueryKeys.corrections,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyRecordCorrections { myRecordCorrections { ${CORRECTION_FIELDS} } }`,
          z.object({ myRecordCorrections: z.array(CorrectionSchema) }),
          {},
          { signal },
        )
      ).myRecordCorrections,
  });
}

export function useRequestCorrection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CorrectionRequestInput) =>
      (
        await graphqlRequest(
          `mutation RequestRecordCorrection($input: RecordCorrectionInput!) { requestRecordCorrection(input: $input) { ${CORRECTION_FIELDS} } }`,
          z.object({ requestRecordCorrection: CorrectionSchema }),
          { input },
        )
      ).requestRecordCorrection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myRecordsQueryKeys.corrections }),
  });
}

/** The care team's view of a patient's correction requests (the patient chart). */
export function usePatientCorrections(patientId: string) {
  return useQuery({
    queryKey: myRecordsQueryKeys.patientCorrections(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query RecordCorrections($patientId: ID!) { recordCorrections(patientId: $patientId) { ${CORRECTION_FIELDS} } }`,
          z.object({ recordCorrections: z.array(CorrectionSchema) }),
          { patientId },
          { signal },
        )
      ).recordCorrections,
  });
}

export function useAnswerCorrection(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AnswerCorrectionInput) =>
      (
        await graphqlRequest(
          `mutation AnswerRecordCorrection($input: AnswerRecordCorrectionInput!) { answerRecordCorrection(input: $input) { ${CORRECTION_FIELDS} } }`,
          z.object({ answerRecordCorrection: CorrectionSchema }),
          { input },
        )
      ).answerRecordCorrection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myRecordsQueryKeys.patientCorrections(patientId) }),
  });
}

const AccessEntrySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  kind: z.string(),
  actorName: z.string().nullable(),
  actorRole: z.string(),
});
export type AccessEntry = z.infer<typeof AccessEntrySchema>;

/** Who viewed my record, newest first, a page at a time (the server's keyset cursor). */
export function useRecordAccessLog() {
  return useInfiniteQuery({
    queryKey: myRecordsQueryKeys.accessLog,
    initialPageParam: null as string | null,
    getNextPageParam: (last: { nextToken: string | null }) => last.nextToken,
    queryFn: async ({ pageParam, signal }) =>
      (
        await graphqlRequest(
          `query RecordAccessLog($nextToken: String) { recordAccessLog(nextToken: $nextToken) {
            items { id timestamp kind actorName actorRole } nextToken } }`,
          z.object({
            recordAccessLog: z.object({ items: z.array(AccessEntrySchema), nextToken: z.string().nullable() }),
          }),
          { nextToken: pageParam },
          { signal },
        )
      ).recordAccessLog,
  });
}
