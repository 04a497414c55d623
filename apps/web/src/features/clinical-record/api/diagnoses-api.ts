import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DIAGNOSIS_STATUSES, type AddDiagnosisData, type UpdateDiagnosisData } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const diagnosisQueryKeys = {
  all: ['diagnoses'] as const,
  list: (patientId: string) => ['diagnoses', 'list', patientId] as const,
  history: (id: string) => ['diagnoses', 'history', id] as const,
  codes: (search: string) => ['diagnoses', 'codes', search] as const,
};

const DiagnosisSchema = z.object({
  id: z.string(),
  patientId: z.string(),
  code: z.string(),
  title: z.string(),
  listed: z.boolean(),
  status: z.enum(DIAGNOSIS_STATUSES),
  onsetDate: z.string().nullable(),
  primary: z.boolean(),
  comment: z.string().nullable(),
  version: z.number(),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedByName: z.string(),
  updatedAt: z.string(),
});
export type Diagnosis = z.infer<typeof DiagnosisSchema>;

const FIELDS =
  'id patientId code title listed status onsetDate primary comment version createdByName createdAt updatedByName updatedAt';

const RevisionSchema = z.object({
  version: z.number(),
  status: z.enum(DIAGNOSIS_STATUSES),
  onsetDate: z.string().nullable(),
  primary: z.boolean(),
  comment: z.string().nullable(),
  changedByName: z.string(),
  changedAt: z.string(),
});
export type DiagnosisRevision = z.infer<typeof RevisionSchema>;

const CodeSchema = z.object({ code: z.string(), title: z.string() });
export type Icd10Code = z.infer<typeof CodeSchema>;

/** A patient's problem list (the server audits each read). */
export function usePatientDiagnoses(patientId: string) {
  return useQuery({
    queryKey: diagnosisQueryKeys.list(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientDiagnoses($patientId: ID!) { patientDiagnoses(patientId: $patientId) { ${FIELDS} } }`,
          z.object({ patientDiagnoses: z.array(DiagnosisSchema) }),
          { patientId },
          { signal },
        )
      ).patientDiagnoses,
  });
}

/** Every version of one entry, newest first; asked for only while the history is open. */
export function useDiagnosisHistory(id: string | null) {
  return useQuery({
    queryKey: diagnosisQueryKeys.history(id ?? ''),
    enabled: id !== null,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query DiagnosisHistory($id: ID!) { diagnosisHistory(id: $id) {
            version status onsetDate primary comment changedByName changedAt } }`,
          z.object({ diagnosisHistory: z.array(RevisionSchema) }),
          { id },
          { signal },
        )
      ).diagnosisHistory,
  });
}

/** The product's ICD-10-CM codes matching what is typed (two characters at least); the last answer stays shown. */
export function useDiagnosisCodes(search: string) {
  const term = search.trim();
  return useQuery({
    queryKey: diagnosisQueryKeys.codes(term.toLowerCase()),
    enabled: term.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query DiagnosisCodes($search: String!) { diagnosisCodes(search: $search) { code title } }',
          z.object({ diagnosisCodes: z.array(CodeSchema) }),
          { search: term },
          { signal },
        )
      ).diagnosisCodes,
  });
}

export function useAddDiagnosis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddDiagnosisData) =>
      (
        await graphqlRequest(
          `mutation AddDiagnosis($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { ${FIELDS} } }`,
          z.object({ addDiagnosis: DiagnosisSchema }),
          { input },
        )
      ).addDiagnosis,
    onSuccess: (added) => queryClient.invalidateQueries({ queryKey: diagnosisQueryKeys.list(added.patientId) }),
  });
}

export function useUpdateDiagnosis() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateDiagnosisData) =>
      (
        await graphqlRequest(
          `mutation UpdateDiagnosis($input: UpdateDiagnosisInput!) { updateDiagnosis(input: $input) { ${FIELDS} } }`,
          z.object({ updateDiagnosis: DiagnosisSchema }),
          { input },
        )
      ).updateDiagnosis,
    onSuccess: async (changed) => {
      await queryClient.invalidateQueries({ queryKey: diagnosisQueryKeys.list(changed.patientId) });
      await queryClient.invalidateQueries({ queryKey: diagnosisQueryKeys.history(changed.id) });
    },
  });
}
