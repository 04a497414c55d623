import { PAGE_SIZE, type CreateDoctorData } from '@telehealth/shared';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const DOCTOR_FIELDS = 'id firstName lastName email specialty experience phone bio isActive createdAt owner';

export const DoctorSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  specialty: z.string(),
  experience: z.number().int(),
  phone: z.string().nullable(),
  bio: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  /** The provider's account id (what a patient's `owner` holds). */
  owner: z.string(),
});
export type Doctor = z.infer<typeof DoctorSchema>;

const DoctorPageSchema = z.object({ items: z.array(DoctorSchema), nextToken: z.string().nullable() });
export type DoctorPage = z.infer<typeof DoctorPageSchema>;

/**
 * Every provider query starts with 'providers' (the patients feature keeps its provider choices under the same
 * prefix), so adding a provider refreshes both.
 */
export const providerQueryKeys = {
  all: ['providers'] as const,
  list: ['providers', 'list'] as const,
};

const LIST_DOCTORS_QUERY = `query ListDoctors($limit: Int, $nextToken: String) {
  listDoctors(limit: $limit, nextToken: $nextToken) { items { ${DOCTOR_FIELDS} } nextToken }
}`;

const CREATE_DOCTOR_MUTATION = `mutation CreateDoctor($input: CreateDoctorInput!) {
  createDoctor(input: $input) { ${DOCTOR_FIELDS} }
}`;

export async function listDoctors(nextToken: string | null, signal?: AbortSignal): Promise<DoctorPage> {
  const data = await graphqlRequest(
    LIST_DOCTORS_QUERY,
    z.object({ listDoctors: DoctorPageSchema }),
    { limit: PAGE_SIZE, nextToken },
    { signal },
  );
  return data.listDoctors;
}

export function doctorListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: providerQueryKeys.list,
    queryFn: ({ pageParam, signal }) => listDoctors(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextToken,
  });
}

/** The practice's providers, page by page (administrators also see inactive ones). */
export function useDoctorList() {
  return useInfiniteQuery(doctorListQueryOptions());
}

export async function createDoctor(input: CreateDoctorData): Promise<Doctor> {
  const data = await graphqlRequest(CREATE_DOCTOR_MUTATION, z.object({ createDoctor: DoctorSchema }), { input });
  return data.createDoctor;
}

/** Adds a provider (administrators); every provider list and choice is read again. */
export function useCreateDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDoctor,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: providerQueryKeys.all });
    },
  });
}
