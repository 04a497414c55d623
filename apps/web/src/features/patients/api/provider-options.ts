import { MAX_PAGE_SIZE } from '@telehealth/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { patientQueryKeys } from './query-keys.ts';

const PROVIDER_OPTIONS_QUERY = `query ProviderOptions($limit: Int, $nextToken: String) {
  listDoctors(limit: $limit, nextToken: $nextToken) {
    items { id owner firstName lastName specialty isActive }
    nextToken
  }
}`;

const ProviderOptionSchema = z.object({
  id: z.string(),
  /** The provider's id, which is their account's: what a patient's `owner` holds. */
  owner: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  specialty: z.string(),
  isActive: z.boolean(),
});
export type ProviderOption = z.infer<typeof ProviderOptionSchema>;

const ProviderOptionsPageSchema = z.object({
  listDoctors: z.object({ items: z.array(ProviderOptionSchema), nextToken: z.string().nullable() }),
});

/** A practice has tens of providers, not thousands: every page is read so the choice is complete. */
const MAX_PAGES = 20;

export async function listProviderOptions(signal?: AbortSignal): Promise<ProviderOption[]> {
  const options: ProviderOption[] = [];
  let nextToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const data: z.infer<typeof ProviderOptionsPageSchema> = await graphqlRequest(
      PROVIDER_OPTIONS_QUERY,
      ProviderOptionsPageSchema,
      { limit: MAX_PAGE_SIZE, nextToken },
      { signal },
    );
    options.push(...data.listDoctors.items);
    nextToken = data.listDoctors.nextToken;
    if (!nextToken) break;
  }
  return options;
}

/** The providers a patient can be assigned to (administrators choose one as the primary provider). */
export function useProviderOptions(enabled: boolean) {
  return useQuery({
    ...queryOptions({
      queryKey: patientQueryKeys.providerOptions,
      queryFn: ({ signal }) => listProviderOptions(signal),
      staleTime: 5 * 60_000,
    }),
    enabled,
  });
}
