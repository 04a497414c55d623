import { MAX_PAGE_SIZE } from '@telehealth/shared';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import {
  PATIENT_SUMMARY_FIELDS,
  PatientSummarySchema,
  toFilterInput,
  type PatientListFilter,
} from './patient-schemas.ts';
import { patientQueryKeys } from './query-keys.ts';

/** A page is the server's maximum: fewer round trips while scrolling a long list. */
export const PATIENT_PAGE_SIZE = MAX_PAGE_SIZE;

const LIST_PATIENTS_QUERY = `query ListPatients($limit: Int, $nextToken: String, $filter: PatientFilterInput) {
  listPatients(limit: $limit, nextToken: $nextToken, filter: $filter) {
    items { ${PATIENT_SUMMARY_FIELDS} }
    nextToken
  }
}`;

const COUNT_PATIENTS_QUERY = `query CountPatients($filter: PatientFilterInput) {
  countPatients(filter: $filter)
}`;

const PatientPageSchema = z.object({
  items: z.array(PatientSummarySchema),
  nextToken: z.string().nullable(),
});
export type PatientPage = z.infer<typeof PatientPageSchema>;

export async function listPatients(
  filter: PatientListFilter,
  nextToken: string | null,
  signal?: AbortSignal,
): Promise<PatientPage> {
  const data = await graphqlRequest(
    LIST_PATIENTS_QUERY,
    z.object({ listPatients: PatientPageSchema }),
    { limit: PATIENT_PAGE_SIZE, nextToken, filter: toFilterInput(filter) },
    { signal },
  );
  return data.listPatients;
}

export async function countPatients(filter: PatientListFilter, signal?: AbortSignal): Promise<number> {
  const data = await graphqlRequest(
    COUNT_PATIENTS_QUERY,
    z.object({ countPatients: z.number().int() }),
    { filter: toFilterInput(filter) },
    { signal },
  );
  return data.countPatients;
}

export function patientListQueryOptions(filter: PatientListFilter) {
  return infiniteQueryOptions({
    queryKey: patientQueryKeys.list(filter),
    queryFn: ({ pageParam, signal }) => listPatients(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextToken,
  });
}

/**
 * The patients the caller may see, page by page (`nextToken`), for one filter. While a new search loads, the
 * previous results stay on screen (marked as placeholder data) instead of a flash of skeletons.
 */
export function usePatientList(filter: PatientListFilter) {
  return useInfiniteQuery({ ...patientListQueryOptions(filter), placeholderData: keepPreviousData });
}

export function patientCountQueryOptions(filter: PatientListFilter) {
  return queryOptions({
    queryKey: patientQueryKeys.count(filter),
    queryFn: ({ signal }) => countPatients(filter, signal),
  });
}

/** How many patients the caller may see with this filter: the "of Y" in "Showing X of Y patients". */
export function usePatientCount(filter: PatientListFilter) {
  return useQuery({ ...patientCountQueryOptions(filter), placeholderData: keepPreviousData });
}
