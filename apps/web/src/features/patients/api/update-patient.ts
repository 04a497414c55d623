import type { UpdatePatientData } from '@telehealth/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { PATIENT_DETAIL_FIELDS, PatientSchema, type Patient } from './patient-schemas.ts';
import { patientQueryKeys } from './query-keys.ts';

const UPDATE_PATIENT_MUTATION = `mutation UpdatePatient($input: UpdatePatientInput!) {
  updatePatient(input: $input) { ${PATIENT_DETAIL_FIELDS} }
}`;

/** Sends the id and only the changed fields (null clears an optional field). */
export async function updatePatient(input: UpdatePatientData): Promise<Patient> {
  const data = await graphqlRequest(UPDATE_PATIENT_MUTATION, z.object({ updatePatient: PatientSchema }), { input });
  return data.updatePatient;
}

export function useUpdatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: async (patient) => {
      queryClient.setQueryData(patientQueryKeys.detail(patient.id), patient);
      // A changed name moves the card, a changed status changes the counts: every list and count is stale.
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.lists });
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.counts });
    },
  });
}
