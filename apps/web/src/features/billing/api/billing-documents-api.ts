import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

/** Queues the "your statement is ready" e-mail to the patient's portal account (no amount, no health data). */
export function useSendBillingStatement() {
  return useMutation({
    mutationFn: async (patientId: string) =>
      (
        await graphqlRequest(
          'mutation SendBillingStatement($patientId: ID!) { sendBillingStatement(patientId: $patientId) }',
          z.object({ sendBillingStatement: z.boolean() }),
          { patientId },
        )
      ).sendBillingStatement,
  });
}
