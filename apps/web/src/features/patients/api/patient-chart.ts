import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { isNotFoundError } from '../../../lib/form-errors.ts';
import { shouldRetryQuery } from '../../../lib/query-client.ts';
import { PATIENT_DETAIL_FIELDS, PatientSchema } from './patient-schemas.ts';
import { patientQueryKeys } from './query-keys.ts';

/** The patient whose chart is open (read fresh; recorded on the server as a chart view). */
export function usePatientChart(id: string) {
  return useQuery({
    queryKey: [...patientQueryKeys.detail(id), 'chart'],
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query PatientChart($id: ID!) { patientChart(id: $id) { ${PATIENT_DETAIL_FIELDS} } }`,
          z.object({ patientChart: PatientSchema }),
          { id },
          { signal },
        )
      ).patientChart,
    staleTime: 0,
    retry: (failureCount, error) => !isNotFoundError(error) && shouldRetryQuery(failureCount, error),
  });
}
