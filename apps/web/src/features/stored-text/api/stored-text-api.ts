import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const StoredTextFindingSchema = z.object({
  id: z.string(),
  table: z.string(),
  recordId: z.string(),
  field: z.string(),
  problem: z.string(),
  foundAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type StoredTextFinding = z.infer<typeof StoredTextFindingSchema>;

const FINDING_FIELDS = 'id table recordId field problem foundAt resolvedAt';

export const storedTextQueryKeys = {
  all: ['stored-text-findings'] as const,
  list: (includeResolved: boolean) => ['stored-text-findings', { includeResolved }] as const,
};

/** The stored-text findings (decision 022), unresolved ones unless asked. */
export function storedTextFindingsQueryOptions(includeResolved: boolean) {
  return queryOptions({
    queryKey: storedTextQueryKeys.list(includeResolved),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query StoredTextFindings($includeResolved: Boolean) {
          storedTextFindings(includeResolved: $includeResolved) { ${FINDING_FIELDS} }
        }`,
        z.object({ storedTextFindings: z.array(StoredTextFindingSchema) }),
        { includeResolved },
        { signal },
      );
      return data.storedTextFindings;
    },
  });
}

/** Marks a finding resolved once a person has checked its record. */
export function useResolveStoredTextFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const data = await graphqlRequest(
        `mutation ResolveStoredTextFinding($id: ID!) { resolveStoredTextFinding(id: $id) { ${FINDING_FIELDS} } }`,
        z.object({ resolveStoredTextFinding: StoredTextFindingSchema }),
        { id },
      );
      return data.resolveStoredTextFinding;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storedTextQueryKeys.all });
    },
  });
}
