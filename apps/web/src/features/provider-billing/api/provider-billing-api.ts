import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const providerBillingQueryKeys = {
  one: (providerId: string) => ['provider-billing', providerId] as const,
};

const ProviderBillingSchema = z.object({
  providerId: z.string(),
  npi: z.string().nullable(),
  taxonomyCode: z.string().nullable(),
  licenseState: z.string().nullable(),
  licenseNumber: z.string().nullable(),
});
export type ProviderBillingView = z.infer<typeof ProviderBillingSchema>;

export interface ProviderBillingInput {
  npi: string;
  taxonomyCode: string;
  licenseState: string;
  licenseNumber: string;
}

const FIELDS = 'providerId npi taxonomyCode licenseState licenseNumber';

/** A provider's billing identity (the provider themself, or an administrator). */
export function useProviderBilling(providerId: string) {
  return useQuery({
    queryKey: providerBillingQueryKeys.one(providerId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query ProviderBilling($providerId: ID!) { providerBilling(providerId: $providerId) { ${FIELDS} } }`,
        z.object({ providerBilling: ProviderBillingSchema }),
        { providerId },
        { signal },
      );
      return data.providerBilling;
    },
  });
}

export function useUpdateProviderBilling(providerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProviderBillingInput) => {
      const data = await graphqlRequest(
        `mutation UpdateProviderBilling($providerId: ID!, $input: ProviderBillingInput!) {
          updateProviderBilling(providerId: $providerId, input: $input) { ${FIELDS} }
        }`,
        z.object({ updateProviderBilling: ProviderBillingSchema }),
        { providerId, input },
      );
      return data.updateProviderBilling;
    },
    onSuccess: (saved) => queryClient.setQueryData(providerBillingQueryKeys.one(providerId), saved),
  });
}
