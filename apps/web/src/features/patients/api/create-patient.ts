import type { CreatePatientData } from '@telehealth/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';
import { PATIENT_DETAIL_FIELDS, PatientSchema, type Patient } from './patient-schemas.ts';
import { patientQueryKeys } from './query-keys.ts';

const CREATE_PATIENT_MUTATION = `mutation CreatePatient($input: CreatePatientInput!) {
  createPatient(input: $input) { ${PATIENT_DETAIL_FIELDS} }
}`;

export async function createPatient(input: CreatePatientData, idempotencyKey?: string): Promise<Patient> {
  const data = await graphqlRequest(
    CREATE_PATIENT_MUTATION,
    z.object({ createPatient: PatientSchema }),
    { input },
    idempotencyKey === undefined ? {} : { idempotencyKey },
  );
  return data.createPatient;
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: CreatePatientData) => submission.send((key) => createPatient(input, key)),
    onSuccess: async (patient) => {
      queryClient.setQueryData(patientQueryKeys.detail(patient.id), patient);
      // Lists and counts are stale in every filter; the one on screen refetches when the list mounts.
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.lists });
      await queryClient.invalidateQueries({ queryKey: patientQueryKeys.counts });
    },
  });
}
