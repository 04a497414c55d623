import { PAGE_SIZE, type CreateDoctorData } from '@telehealth/shared';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const DOCTOR_FIELDS =
  'id firstName lastName email specialty experience phone bio isActive createdAt owner invitationPending invitationExpiresAt';

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
  /** Administrators only (null for others): the account has no password yet, so nobody can sign in to it. */
  invitationPending: z.boolean().nullable(),
  /** Administrators only: when the newest unused invitation link stops working (may be past); null when none. */
  invitationExpiresAt: z.string().nullable(),
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

/**
 * Adds a provider (administrators), and with `sendInvitation` e-mails the new account its invitation; every
 * provider list and choice is read again.
 */
export function useCreateDoctor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDoctor,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: providerQueryKeys.all });
    },
  });
}

const SEND_INVITATION_MUTATION = `mutation SendInvitation($accountId: ID!) {
  sendInvitation(accountId: $accountId) { success message expiresAt }
}`;

/**
 * E-mails a provider whose account has no password yet a new invitation (administrators; the server checks);
 * an earlier link stops working. The card shows the new link's expiry at once, and the list is read again.
 */
export function useSendProviderInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (provider: Doctor) => {
      const data = await graphqlRequest(
        SEND_INVITATION_MUTATION,
        z.object({ sendInvitation: z.object({ success: z.boolean(), message: z.string(), expiresAt: z.string() }) }),
        { accountId: provider.owner },
      );
      return data.sendInvitation;
    },
    onSuccess: async (result, provider) => {
      queryClient.setQueryData<InfiniteData<DoctorPage>>(providerQueryKeys.list, (current) =>
        current
          ? {
              ...current,
              pages: current.pages.map((page) => ({
                ...page,
                items: page.items.map((item) =>
                  item.id === provider.id ? { ...item, invitationExpiresAt: result.expiresAt } : item,
                ),
              })),
            }
          : current,
      );
      await queryClient.invalidateQueries({ queryKey: providerQueryKeys.list });
    },
  });
}
