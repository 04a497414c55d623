import { useQuery } from '@tanstack/react-query';
import { LEDGER_ENTRY_KINDS } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

export const myBillingQueryKeys = { mine: ['my-billing'] as const };

const MyBillingSchema = z.object({
  patientId: z.string(),
  balanceCents: z.number(),
  entries: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      kind: z.enum(LEDGER_ENTRY_KINDS),
      code: z.string().nullable(),
      amountCents: z.number(),
    }),
  ),
  visits: z.array(z.object({ appointmentId: z.string(), serviceDate: z.string(), providerName: z.string() })),
});
export type MyBilling = z.infer<typeof MyBillingSchema>;

/** The signed-in patient's balance, ledger (newest first) and coded visits (the server audits each read). */
export function useMyBilling() {
  return useQuery({
    queryKey: myBillingQueryKeys.mine,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query MyBilling { myBilling { patientId balanceCents entries { id date kind code amountCents }
            visits { appointmentId serviceDate providerName } } }`,
          z.object({ myBilling: MyBillingSchema }),
          {},
          { signal },
        )
      ).myBilling,
  });
}
