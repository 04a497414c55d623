import type { AddToWaitlistInput } from '@telehealth/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

// The offer page is public: its operations neither need nor extend a session.
const PUBLIC = { extendsSession: false } as const;

export const waitlistQueryKeys = {
  all: ['waitlist'] as const,
  entries: (providerId: string | null) => ['waitlist', 'entries', providerId ?? 'all'] as const,
  offer: (token: string) => ['waitlist', 'offer', token] as const,
};

const WaitlistOfferSchema = z.object({
  status: z.enum(['open', 'claimed', 'gone']),
  providerName: z.string(),
  date: z.string(),
  time: z.string(),
  duration: z.number(),
  appointmentType: z.string(),
  timeZone: z.string(),
  expiresAt: z.string(),
});
export type WaitlistOffer = z.infer<typeof WaitlistOfferSchema>;

export function waitlistOfferQueryOptions(token: string) {
  return queryOptions({
    // The token is a secret: kept in the query key in memory only, and sent in the body, never in a URL.
    queryKey: waitlistQueryKeys.offer(token),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query WaitlistOffer($token: String!) { waitlistOffer(token: $token) { status providerName date time duration appointmentType timeZone expiresAt } }',
        z.object({ waitlistOffer: WaitlistOfferSchema }),
        { token },
        { signal, ...PUBLIC },
      );
      return data.waitlistOffer;
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

export function useClaimWaitlistOffer() {
  return useMutation({
    mutationFn: async (token: string) => {
      const data = await graphqlRequest(
        'mutation ClaimWaitlistOffer($token: String!) { claimWaitlistOffer(token: $token) { success message date time } }',
        z.object({
          claimWaitlistOffer: z.object({
            success: z.boolean(),
            message: z.string(),
            date: z.string(),
            time: z.string(),
          }),
        }),
        { token },
        PUBLIC,
      );
      return data.claimWaitlistOffer;
    },
  });
}

const WaitlistEntrySchema = z.object({
  id: z.string(),
  patient: z.string(),
  providerName: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  weekdays: z.array(z.number()),
  timeOfDay: z.string(),
  duration: z.number(),
  appointmentType: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntrySchema>;
const ENTRY_FIELDS =
  'id patient providerName fromDate toDate weekdays timeOfDay duration appointmentType reason createdAt';

export function waitlistQueryOptions(providerId: string | null) {
  return queryOptions({
    queryKey: waitlistQueryKeys.entries(providerId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query ListWaitlist($providerId: ID) { listWaitlist(providerId: $providerId) { ${ENTRY_FIELDS} } }`,
        z.object({ listWaitlist: z.array(WaitlistEntrySchema) }),
        { providerId },
        { signal },
      );
      return data.listWaitlist;
    },
  });
}

export function useAddToWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddToWaitlistInput) => {
      const data = await graphqlRequest(
        `mutation AddToWaitlist($input: AddToWaitlistInput!) { addToWaitlist(input: $input) { ${ENTRY_FIELDS} } }`,
        z.object({ addToWaitlist: WaitlistEntrySchema }),
        { input },
      );
      return data.addToWaitlist;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistQueryKeys.all }),
  });
}

export function useRemoveFromWaitlist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await graphqlRequest(
        'mutation RemoveFromWaitlist($id: ID!) { removeFromWaitlist(id: $id) { id } }',
        z.object({ removeFromWaitlist: z.object({ id: z.string() }) }),
        { id },
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistQueryKeys.all }),
  });
}
