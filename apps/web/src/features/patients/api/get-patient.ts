import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { isNotFoundError } from '../../../lib/form-errors.ts';
import { graphqlRequest } from '../../../lib/graphql.ts';
import { shouldRetryQuery } from '../../../lib/query-client.ts';
import { PATIENT_DETAIL_FIELDS, PatientSchema, type Patient } from './patient-schemas.ts';
import { patientQueryKeys } from './query-keys.ts';

const GET_PATIENT_QUERY = `query GetPatient($id: ID!) { getPatient(id: $id) { ${PATIENT_DETAIL_FIELDS} } }`;

export async function getPatient(id: string, signal?: AbortSignal): Promise<Patient> {
  const data = await graphqlRequest(GET_PATIENT_QUERY, z.object({ getPatient: PatientSchema }), { id }, { signal });
  return data.getPatient;
}

export function patientQueryOptions(id: string) {
  return queryOptions({
    queryKey: patientQueryKeys.detail(id),
    queryFn: ({ signal }) => getPatient(id, signal),
    // A record is read fresh each time it is opened: someone else may have changed it.
    staleTime: 0,
    retry: (failureCount, error) => !isNotFoundError(error) && shouldRetryQuery(failureCount, error),
  });
}

/** One patient record with every field the caller may see. */
export function usePatient(id: string | undefined) {
  return useQuery({ ...patientQueryOptions(id ?? ''), enabled: id !== undefined });
}
