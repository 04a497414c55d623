import { MAX_PAGE_SIZE } from '@telehealth/shared';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from './graphql.ts';

/** A person to choose in a form: a patient or a provider, by name. */
const ChoiceSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;

/**
 * The caller's active patients whose name or e-mail holds `search` (the first 20): the forms' patient pickers.
 * `includeInactive` also finds inactive records (the audit trail's patient filter).
 */
export function patientChoicesQueryOptions(search: string, options: { includeInactive?: boolean } = {}) {
  const includeInactive = options.includeInactive ?? false;
  return queryOptions({
    queryKey: ['choices', 'patients', search, includeInactive] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query PatientChoices($filter: PatientFilterInput) { listPatients(limit: 20, filter: $filter) { items { id firstName lastName } } }',
        z.object({ listPatients: z.object({ items: z.array(ChoiceSchema) }) }),
        { filter: { ...(includeInactive ? {} : { isActive: true }), ...(search ? { search } : {}) } },
        { signal },
      );
      return data.listPatients.items;
    },
  });
}

/** The active providers (administrators choose whose calendar, waitlist or hours). */
export function providerChoicesQueryOptions() {
  return queryOptions({
    queryKey: ['choices', 'providers'] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query ProviderChoices($limit: Int) { listDoctors(limit: $limit) { items { id firstName lastName isActive } } }',
        z.object({ listDoctors: z.object({ items: z.array(ChoiceSchema.extend({ isActive: z.boolean() })) }) }),
        { limit: MAX_PAGE_SIZE },
        { signal },
      );
      return data.listDoctors.items.filter((p) => p.isActive);
    },
    staleTime: 5 * 60_000,
  });
}
