import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALLERGY_CATEGORIES,
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
  type AddAllergyData,
  type RemoveAllergyData,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const allergyQueryKeys = {
  all: ['allergies'] as const,
  list: (patientId: string) => ['allergies', 'list', patientId] as const,
};

const AllergySchema = z.object({
  id: z.string(),
  patientId: z.string(),
  substance: z.string(),
  reaction: z.string().nullable(),
  severity: z.enum(ALLERGY_SEVERITIES),
  category: z.enum(ALLERGY_CATEGORIES).nullable(),
  notedDate: z.string().nullable(),
  status: z.enum(ALLERGY_STATUSES),
  /** clinician, or patient: reported by the patient in an accepted intake (decision 067). */
  source: z.enum(['clinician', 'patient']),
  createdByName: z.string(),
  createdAt: z.string(),
  removedByName: z.string().nullable(),
  removedAt: z.string().nullable(),
  removalReason: z.string().nullable(),
});
export type Allergy = z.infer<typeof AllergySchema>;

const FIELDS =
  'id patientId substance reaction severity category notedDate status source createdByName createdAt removedByName removedAt removalReason';

/** A patient's structured allergies, active first (the server audits each read). */
export function usePatientAllergies(patientId: string) {
  return useQuery({
    queryKey: allergyQueryKeys.list(patientId),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientAllergies($patientId: ID!) { patientAllergies(patientId: $patientId) { ${FIELDS} } }`,
          z.object({ patientAllergies: z.array(AllergySchema) }),
          { patientId },
          { signal },
        )
      ).patientAllergies,
  });
}

export function useAddAllergy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddAllergyData) =>
      (
        await graphqlRequest(
          `mutation AddAllergy($input: AddAllergyInput!) { addAllergy(input: $input) { ${FIELDS} } }`,
          z.object({ addAllergy: AllergySchema }),
          { input },
        )
      ).addAllergy,
    onSuccess: (added) => queryClient.invalidateQueries({ queryKey: allergyQueryKeys.list(added.patientId) }),
  });
}

export function useRemoveAllergy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RemoveAllergyData) =>
      (
        await graphqlRequest(
          `mutation RemoveAllergy($input: RemoveAllergyInput!) { removeAllergy(input: $input) { ${FIELDS} } }`,
          z.object({ removeAllergy: AllergySchema }),
          { input },
        )
      ).removeAllergy,
    onSuccess: (removed) => queryClient.invalidateQueries({ queryKey: allergyQueryKeys.list(removed.patientId) }),
  });
}
