import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeeScheduleItemInput } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const feeScheduleQueryKeys = { all: ['fee-schedule'] as const };

const FeeItemSchema = z.object({
  id: z.string(),
  code: z.string(),
  shortName: z.string(),
  feeCents: z.number(),
  addOn: z.boolean(),
  active: z.boolean(),
  example: z.boolean(),
});
export type FeeItem = z.infer<typeof FeeItemSchema>;

const FIELDS = 'id code shortName feeCents addOn active example';

/** The practice's fee schedule, active and inactive services, by code. */
export function useFeeSchedule() {
  return useQuery({
    queryKey: feeScheduleQueryKeys.all,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query FeeSchedule { feeSchedule { ${FIELDS} } }`,
        z.object({ feeSchedule: z.array(FeeItemSchema) }),
        undefined,
        { signal },
      );
      return data.feeSchedule;
    },
  });
}

/** Adds a service (no id) or changes one. */
export function useSaveFeeItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: FeeScheduleItemInput) => {
      const data = await graphqlRequest(
        `mutation SaveFeeScheduleItem($input: FeeScheduleItemInput!) { saveFeeScheduleItem(input: $input) { ${FIELDS} } }`,
        z.object({ saveFeeScheduleItem: FeeItemSchema }),
        { input },
      );
      return data.saveFeeScheduleItem;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: feeScheduleQueryKeys.all }),
  });
}
